/* The steps every producer hook and every consumer hook takes around its
 * real call, written once: the cuBLAS and cuBLASLt hooks differ only in how
 * they describe the call, make its replay, and call the library. Statuses
 * are the library's, 0 meaning success. */
#ifndef TF_HOOK_STEPS_H
#define TF_HOOK_STEPS_H
#include "engine.h"

/* A transpose producer: deferred if the engine agrees, else run and
 * reported. `make_replay` runs only when the hook does not refuse; when it
 * cannot copy what the replay needs (run == NULL) the call is refused with
 * `no_replay`. `access` (reads beyond the views) only for a refused call. */
typedef struct tf_producer {
    const tf_transpose_desc *desc;
    const char *refuse;
    const char *no_replay;
    tf_replay (*make_replay)(void *ctx);
    tf_access (*access)(void *ctx);
    int (*invoke)(void *ctx);
    void *ctx;
} tf_producer;

int tf_produce(const tf_producer *p);

/* A GEMM consumer. When the engine found records for its operands,
 * `folded` makes (or in log mode only checks) the rewritten call: it
 * returns why it cannot, or NULL, and sets *ran when that call ran and
 * succeeded (*st its status). Otherwise, after the engine's fallback when
 * there was a reason, `invoke` runs the program's call as it was. */
typedef struct tf_consumer {
    const tf_gemm *g;
    const char *(*folded)(void *ctx, const tf_plan *plan, int *st, bool *ran);
    int (*invoke)(void *ctx);
    void *ctx;
} tf_consumer;

int tf_consume(const tf_consumer *c);

#endif
