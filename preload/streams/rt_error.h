/* transfold's own runtime calls must not change what the program's next
 * cudaGetLastError returns: hold before them, release after. A failure in
 * between is cleared when the program had no error pending; an error the
 * program had not fetched yet cannot be re-armed, so internal calls avoid
 * failing where they can. The lowest of streams/: stream ids ask the
 * runtime under it too. */
#ifndef TF_RT_ERROR_H
#define TF_RT_ERROR_H

int pl_rt_error_hold(void);
void pl_rt_error_release(int held);

#endif
