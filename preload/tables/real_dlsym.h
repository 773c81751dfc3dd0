/* The real dlsym, never our interposer (dlsym.c) or anyone else's: the
 * lookups of real.c and dlsym.c go through it. */
#ifndef TF_REAL_DLSYM_H
#define TF_REAL_DLSYM_H

/* What may run while a sanitizer initialises is not instrumented by one
 * (make sanitize builds us with them): its shadow memory is not there yet. */
#define TF_UNSANITIZED __attribute__((no_sanitize("address", "thread", "undefined")))

typedef void *(*pl_dlsym_fn)(void *, const char *);

/* The real dlsym itself (NULL if glibc has none we know), found on first
 * use; dlsym.c's RTLD_NEXT path jumps to it. */
pl_dlsym_fn pl_dlsym_next_target(void);
void *pl_real_dlsym(void *handle, const char *name);

#endif
