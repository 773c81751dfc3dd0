/* The cuBLASLt side's own locks (the fold cache's), kept apart
 * from the engine's so descriptor traffic never waits on a replay. Like
 * the engine's, they are taken around fork so a child never inherits one
 * held by a thread that no longer exists. */
#ifndef PL_LT_LOCKS_H
#define PL_LT_LOCKS_H

typedef enum lt_lock_id { LT_LOCK_FOLD, LT_LOCK_COUNT } lt_lock_id;

void lt_lock(lt_lock_id id);
void lt_unlock(lt_lock_id id);

#endif
