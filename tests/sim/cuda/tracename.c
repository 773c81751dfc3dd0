/* The stand-in runtime performs each cuda* call through one driver call; so
 * that the trace holds one line per operation, named after the API the
 * program called, the runtime announces that name and the driver API it is
 * about to call (simcudaTraceAs, a stand-in-only export reached through
 * dlsym). Only that driver API takes the name: an interposer that issues
 * other driver work first (a replay, say) leaves it for the intended call. */
#include "internal.h"

#include <string.h>

static __thread const char *pending_op, *pending_api;

SIM_API void simcudaTraceAs(const char *op, const char *driver_api);
void simcudaTraceAs(const char *op, const char *driver_api)
{
    pending_op = driver_api ? op : NULL;
    pending_api = driver_api;
}

/* "cuMemcpyHtoD" is announced for cuMemcpyHtoD and cuMemcpyHtoD_ptds. */
static bool announced_for(const char *api)
{
    size_t n = pending_api ? strlen(pending_api) : 0;
    return n && strncmp(api, pending_api, n) == 0 && (api[n] == '\0' || api[n] == '_');
}

const char *sim_op_name(const char *driver_api)
{
    if (!announced_for(driver_api))
        return driver_api;
    const char *op = pending_op;
    pending_op = pending_api = NULL;
    return op;
}
