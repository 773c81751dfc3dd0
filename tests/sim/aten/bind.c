/* Trampolines: simcuda_kernel_fn has no context argument, so each bound
 * twin gets one of a fixed set of functions, each reading its own slot.
 * 4096 slots (six base-4 digits) are far more than the distinct ATen
 * kernels one process launches (a test sweeping every op over every
 * dtype and layout binds a few hundred). Slots are filled once and never freed
 * (function objects live for the process, as the stand-in's do). */
#include "aten.h"

#include <pthread.h>
#include <stdio.h>

#define ATEN_SLOTS 4096

static aten_twin slots[ATEN_SLOTS];
static size_t used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define SLOT(a, b, c, d, e, f) (a * 1024 + b * 256 + c * 64 + d * 16 + e * 4 + f)
#define SLOT_FNS(a, b, c, d, e, f)                                                                          \
    static void run_##a##b##c##d##e##f(const simcuda_launch *l, void **p)                                  \
    {                                                                                                      \
        const aten_twin *t = &slots[SLOT(a, b, c, d, e, f)];                                               \
        t->run(t->ctx, l, p);                                                                              \
    }                                                                                                      \
    static size_t reads_##a##b##c##d##e##f(const simcuda_launch *l, void **p, simcuda_range *o, size_t m) \
    {                                                                                                      \
        const aten_twin *t = &slots[SLOT(a, b, c, d, e, f)];                                               \
        return t->reads(t->ctx, l, p, o, m);                                                               \
    }
#define SLOT_ENTRY(a, b, c, d, e, f) {run_##a##b##c##d##e##f, reads_##a##b##c##d##e##f},

#define D4(M, ...) M(__VA_ARGS__, 0) M(__VA_ARGS__, 1) M(__VA_ARGS__, 2) M(__VA_ARGS__, 3)
#define L1(M, a, b, c, d, e) D4(M, a, b, c, d, e)
#define L2(M, a, b, c, d) L1(M, a, b, c, d, 0) L1(M, a, b, c, d, 1) L1(M, a, b, c, d, 2) L1(M, a, b, c, d, 3)
#define L3(M, a, b, c) L2(M, a, b, c, 0) L2(M, a, b, c, 1) L2(M, a, b, c, 2) L2(M, a, b, c, 3)
#define L4(M, a, b) L3(M, a, b, 0) L3(M, a, b, 1) L3(M, a, b, 2) L3(M, a, b, 3)
#define L5(M, a) L4(M, a, 0) L4(M, a, 1) L4(M, a, 2) L4(M, a, 3)
#define L6(M) L5(M, 0) L5(M, 1) L5(M, 2) L5(M, 3)

L6(SLOT_FNS)

static const struct {
    simcuda_kernel_fn run;
    simcuda_reads_fn reads;
} entries[ATEN_SLOTS] = {L6(SLOT_ENTRY)};

bool aten_bind(const aten_twin *t, simcuda_twin *out)
{
    pthread_mutex_lock(&lock);
    static bool told;
    size_t i = used < ATEN_SLOTS ? used++ : ATEN_SLOTS;
    bool tell = i == ATEN_SLOTS && !told;
    if (i < ATEN_SLOTS)
        slots[i] = *t;
    told = told || tell;
    pthread_mutex_unlock(&lock);
    if (tell)
        fprintf(stderr, "simcuda-aten: all %d twin slots are bound; further kernels have no twin\n", ATEN_SLOTS);
    if (i == ATEN_SLOTS)
        return false;
    *out = (simcuda_twin){entries[i].run, slots[i].params, t->reads ? entries[i].reads : NULL};
    return true;
}
