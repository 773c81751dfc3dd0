/* Trampolines: simcuda_kernel_fn has no context argument, so each bound
 * twin gets one of a fixed set of functions, each reading its own slot.
 * 1024 slots (five base-4 digits) are far more than the distinct ATen
 * kernels one process launches. Slots are filled once and never freed
 * (function objects live for the process, as the stand-in's do). */
#include "aten.h"

#include <pthread.h>
#include <stdio.h>

#define ATEN_SLOTS 1024

static aten_twin slots[ATEN_SLOTS];
static size_t used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define SLOT_FNS(a, b, c, d, e)                                                                         \
    static void run_##a##b##c##d##e(const simcuda_launch *l, void **p)                                  \
    {                                                                                                   \
        const aten_twin *t = &slots[a * 256 + b * 64 + c * 16 + d * 4 + e];                             \
        t->run(t->ctx, l, p);                                                                           \
    }                                                                                                   \
    static size_t reads_##a##b##c##d##e(const simcuda_launch *l, void **p, simcuda_range *o, size_t m) \
    {                                                                                                   \
        const aten_twin *t = &slots[a * 256 + b * 64 + c * 16 + d * 4 + e];                             \
        return t->reads(t->ctx, l, p, o, m);                                                            \
    }
#define SLOT_ENTRY(a, b, c, d, e) {run_##a##b##c##d##e, reads_##a##b##c##d##e},

#define D4(M, ...) M(__VA_ARGS__, 0) M(__VA_ARGS__, 1) M(__VA_ARGS__, 2) M(__VA_ARGS__, 3)
#define L1(M, a, b, c, d) D4(M, a, b, c, d)
#define L2(M, a, b, c) L1(M, a, b, c, 0) L1(M, a, b, c, 1) L1(M, a, b, c, 2) L1(M, a, b, c, 3)
#define L3(M, a, b) L2(M, a, b, 0) L2(M, a, b, 1) L2(M, a, b, 2) L2(M, a, b, 3)
#define L4(M, a) L3(M, a, 0) L3(M, a, 1) L3(M, a, 2) L3(M, a, 3)
#define L5(M) L4(M, 0) L4(M, 1) L4(M, 2) L4(M, 3)

L5(SLOT_FNS)

static const struct {
    simcuda_kernel_fn run;
    simcuda_reads_fn reads;
} entries[ATEN_SLOTS] = {L5(SLOT_ENTRY)};

bool aten_bind(const aten_twin *t, simcuda_twin *out)
{
    pthread_mutex_lock(&lock);
    size_t i = used < ATEN_SLOTS ? used++ : ATEN_SLOTS;
    if (i < ATEN_SLOTS)
        slots[i] = *t;
    pthread_mutex_unlock(&lock);
    if (i == ATEN_SLOTS) {
        static bool told;
        if (!told)
            fprintf(stderr, "simcuda-aten: all %d twin slots are bound; further kernels have no twin\n", ATEN_SLOTS);
        told = true;
        return false;
    }
    *out = (simcuda_twin){entries[i].run, slots[i].params, t->reads ? entries[i].reads : NULL};
    return true;
}
