/* TensorIterator's elementwise kernels (filled in next). */
#include "aten.h"

bool aten_elementwise_resolve(const char *demangled, simcuda_twin *out)
{
    (void)demangled, (void)out;
    return false;
}
