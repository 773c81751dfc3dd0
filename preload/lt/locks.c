/* The cuBLASLt side's own locks (locks.h). */
#include "lt/locks.h"
#include <pthread.h>

/* Fork handlers are registered on first use: no work at load time. The
 * locks are always taken in id order, in prepare as everywhere else. */
static pthread_mutex_t lt_mutex[LT_LOCK_COUNT] = { PTHREAD_MUTEX_INITIALIZER };
static pthread_once_t lt_once = PTHREAD_ONCE_INIT;

static void prepare(void)
{
    for (int i = 0; i < LT_LOCK_COUNT; i++)
        pthread_mutex_lock(&lt_mutex[i]);
}

static void parent(void)
{
    for (int i = LT_LOCK_COUNT; i-- > 0;)
        pthread_mutex_unlock(&lt_mutex[i]);
}

static void child(void)
{
    for (int i = 0; i < LT_LOCK_COUNT; i++)
        pthread_mutex_init(&lt_mutex[i], NULL);
}

static void register_fork(void) { pthread_atfork(prepare, parent, child); }

void lt_lock(lt_lock_id id)
{
    pthread_once(&lt_once, register_fork);
    pthread_mutex_lock(&lt_mutex[id]);
}

void lt_unlock(lt_lock_id id) { pthread_mutex_unlock(&lt_mutex[id]); }
