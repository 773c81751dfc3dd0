/* The exported launch hooks' entry: the few instructions every launch pays.
 *
 * TF_LAUNCH_ENTRY(NAME, RET, PARAMS, ARGS) defines the exported hook NAME,
 * which goes, in this order:
 *   - to the real function, when the launch needs no look: nested inside
 *     another intercepted call (pl_depth > 0), or launches are quiet
 *     (pl_launch_quiet_now), and the real function is known;
 *   - to learn_NAME when learning is all there is to do
 *     (pl_launch_learning_only_now, state.h): it notes the function among
 *     the recent launches and runs the real one at a raised depth, so the
 *     driver launch the runtime makes for it passes straight through;
 *   - to outer_NAME otherwise (resolving the real function, describing).
 * The including file defines learn_NAME and outer_NAME with TF_LAUNCH_OUTER
 * and the hook's prototype.
 *
 * On x86-64 the entry is a few instructions of assembly: launches have
 * stack arguments (cuLaunchKernel five, __cudaLaunchKernel two), and GCC's
 * sibling call reloads and stores back every one of them, and spills the
 * dim3 halves, about 15 instructions a hook for nothing; a plain jump
 * leaves the caller's arguments where they are. Elsewhere the entry is the
 * same tests in C (TF_NESTED_REAL, hooks.h). Both read the same flags, so
 * behaviour does not depend on the architecture. */
#ifndef TF_LAUNCH_ENTRY_H
#define TF_LAUNCH_ENTRY_H
#include "tables/hooks.h"
#include "core/state.h"

/* The out-of-line rest of a hook: referenced from the entry's assembly,
 * hence kept (used) under its own name (not static: GCC may rename or clone
 * a static function whose callers it cannot see). */
#define TF_LAUNCH_OUTER __attribute__((noinline, used, visibility("hidden")))

/* The real function when already known (no resolving: outer_NAME does). */
#define TF_REAL_KNOWN(name) \
    ((pl_fn_##name)atomic_load_explicit(&pl_real_fns[TF_ID_##name], memory_order_acquire))

/* TF_LAUNCH_ENTRY_C builds the C entries on x86-64 too (to check them). */
#if defined(__x86_64__) && !defined(TF_LAUNCH_ENTRY_C)
/* The CET landing pad, when the build asks for indirect-branch tracking:
 * programs reach these hooks through pointers (cuGetProcAddress, dlsym). */
#if defined(__CET__) && (__CET__ & 1)
#define TF_ENTRY_LANDING "endbr64\n\t"
#else
#define TF_ENTRY_LANDING ""
#endif

/* pl_launch_slot_NAME: the address of NAME's real-function slot, for the
 * assembly, which cannot name the slot's index (an enum constant).
 * The entry is file-scope assembly, not a naked C function: GCC stores a
 * naked function's dim3 parameters to the stack all the same (4 useless
 * instructions); hooks.h's declaration still checks the prototype. The
 * depth is initial-exec TLS (state.h): one load through the GOT. The flag
 * and slot loads are plain moves: on x86-64 an acquire load is one. */
#define TF_LAUNCH_ENTRY(NAME, RET, PARAMS, ARGS)                                                       \
    __attribute__((used, visibility("hidden"))) void *_Atomic *const pl_launch_slot_##NAME =            \
        &pl_real_fns[TF_ID_##NAME];                                                                    \
    __asm__(".pushsection .text\n\t"                                                                   \
            ".globl " #NAME "\n\t"                                                                     \
            ".type " #NAME ", @function\n\t"                                                           \
            ".p2align 4\n"                                                                             \
            #NAME ":\n\t"                                                                              \
            ".cfi_startproc\n\t"                                                                      \
            TF_ENTRY_LANDING                                                                           \
            "movq pl_depth@gottpoff(%rip), %rax\n\t"                                                   \
            "cmpl $0, %fs:(%rax)\n\t"                                                                  \
            "jg 1f\n\t"                                                                                \
            "cmpb $0, pl_launch_learning_only_now(%rip)\n\t"                                           \
            "jne learn_" #NAME "\n\t"                                                                  \
            "cmpb $0, pl_launch_quiet_now(%rip)\n\t"                                                   \
            "je outer_" #NAME "\n"                                                                      \
            "1:\n\t"                                                                                   \
            "movq pl_launch_slot_" #NAME "(%rip), %rax\n\t"                                            \
            "movq (%rax), %rax\n\t"                                                                    \
            "testq %rax, %rax\n\t"                                                                     \
            "jz outer_" #NAME "\n\t"                                                                   \
            "jmp *%rax\n\t"                                                                            \
            ".cfi_endproc\n\t"                                                                        \
            ".size " #NAME ", .-" #NAME "\n\t"                                                         \
            ".popsection");
#else
#define TF_LAUNCH_ENTRY(NAME, RET, PARAMS, ARGS)                                                       \
    RET NAME PARAMS                                                                                    \
    {                                                                                                  \
        pl_fn_##NAME nested = TF_NESTED_REAL(NAME);                                                    \
        if (nested)                                                                                    \
            return nested ARGS;                                                                        \
        if (atomic_load_explicit(&pl_launch_learning_only_now, memory_order_acquire))                  \
            return learn_##NAME ARGS;                                                                  \
        return outer_##NAME ARGS;                                                                      \
    }
#endif

#endif
