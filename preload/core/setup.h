/* What the layers above core/ add when the engine is made and when it
 * goes. core/ names none of them: each registers a pl_setup with PL_SETUP,
 * the linker gathers every one into the section pl_setups, and state.c
 * walks it. A table the linker builds, not a list filled by constructors:
 * the first hook that needs the engine may run before any constructor of
 * ours has (a library initialised before us calling CUDA). */
#ifndef TF_SETUP_H
#define TF_SETUP_H

#include "engine.h"

typedef struct pl_setup {
    /* Before the engine is made: what its config needs from above. */
    void (*configure)(tf_config *cfg);
    /* The engine was made; no hook has used it yet. */
    void (*created)(tf_engine *e);
    /* Process exit, the lock held and the depth raised, before the engine
     * is freed. */
    void (*exiting)(tf_engine *e);
} pl_setup;

#define PL_SETUP(name, ...)                                                                 \
    static const pl_setup pl_setup_##name                                                   \
        __attribute__((used, section("pl_setups"), aligned(sizeof(void *)))) = { __VA_ARGS__ }

#endif
