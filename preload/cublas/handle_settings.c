/* A cuBLAS handle's settings, for replays of deferred GEMMs (output
 * folding): a GEMM's bits depend on the handle's math mode (TF32, reduced
 * precision reductions), atomics mode (split-k with atomics), SM count
 * target, emulation strategy and controls, and workspace (its size picks
 * the algorithm; it is scratch the GEMM writes). The program may change
 * any of them between a GEMM and its output's first reader (PyTorch sets
 * the math mode and workspace before each GEMM), so each deferred GEMM
 * keeps those it was called under and its replay runs under them.
 *
 * cuBLAS has a getter for every setting but the workspace, which is
 * tracked here: cublasSetWorkspace sets it, cublasSetStream resets it to
 * the library's own (unconditionally, as documented), cublasDestroy ends
 * it. A handle with no entry uses the library's own. The table is small
 * (handles that set a workspace: one per device and thread in PyTorch);
 * a handle that does not fit makes every later deferral on handles not
 * in it refused (`untracked`). */
#include <pthread.h>
#include <stdatomic.h>

#include "cublas/handle_settings.h"
#include "core/state.h"

/* No lock: PyTorch sets the stream (which resets the workspace) and the
 * workspace before every GEMM. A slot is claimed for a handle by
 * compare-and-swap and kept until the handle is destroyed (a reset leaves
 * it claimed, holding no workspace); its pair is written under the slot's
 * sequence number (odd while written) and read as a seqlock. */
#define WS_SLOTS 32
typedef struct ws_slot {
    _Atomic(cublasHandle_t) h;
    _Atomic uint64_t seq;
    void *_Atomic ws;
    _Atomic size_t size;
} ws_slot;
static ws_slot ws_table[WS_SLOTS];
static atomic_int ws_used; /* slots with a handle: 0 lets cublasSetStream skip the table */
static atomic_bool ws_untracked;

static ws_slot *ws_find(cublasHandle_t h)
{
    for (int i = 0; h && i < WS_SLOTS; i++)
        if (atomic_load_explicit(&ws_table[i].h, memory_order_acquire) == h)
            return &ws_table[i];
    return NULL;
}

static ws_slot *ws_claim(cublasHandle_t h)
{
    ws_slot *s = ws_find(h);
    for (int i = 0; !s && h && i < WS_SLOTS; i++) {
        cublasHandle_t none = NULL;
        if (atomic_compare_exchange_strong_explicit(&ws_table[i].h, &none, h, memory_order_acq_rel,
                                                    memory_order_relaxed)) {
            s = &ws_table[i];
            atomic_fetch_add_explicit(&ws_used, 1, memory_order_relaxed);
        }
    }
    return s;
}

static void ws_write(ws_slot *s, void *ws, size_t size)
{
    uint64_t q = atomic_load_explicit(&s->seq, memory_order_relaxed);
    while ((q & 1) || !atomic_compare_exchange_weak_explicit(&s->seq, &q, q + 1, memory_order_acquire,
                                                             memory_order_relaxed))
        if (q & 1)
            q = atomic_load_explicit(&s->seq, memory_order_relaxed);
    atomic_store_explicit(&s->ws, ws, memory_order_relaxed);
    atomic_store_explicit(&s->size, size, memory_order_relaxed);
    atomic_store_explicit(&s->seq, q + 2, memory_order_release);
}

static void ws_pair(ws_slot *s, void **ws, size_t *size)
{
    for (;;) {
        uint64_t q = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (q & 1)
            continue;
        *ws = atomic_load_explicit(&s->ws, memory_order_relaxed);
        *size = atomic_load_explicit(&s->size, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->seq, memory_order_relaxed) == q)
            return;
    }
}

/* A child forked while a slot was written would wait for it forever. */
static void ws_fork_child(void)
{
    for (int i = 0; i < WS_SLOTS; i++)
        atomic_store_explicit(&ws_table[i].seq, atomic_load(&ws_table[i].seq) & ~(uint64_t)1, memory_order_relaxed);
}
__attribute__((constructor)) static void ws_register_fork(void) { pthread_atfork(NULL, NULL, ws_fork_child); }

void pl_handle_ws_set(cublasHandle_t h, void *ws, size_t size)
{
    if (!ws) {
        ws_slot *s = atomic_load_explicit(&ws_used, memory_order_relaxed) ? ws_find(h) : NULL;
        if (s && atomic_load_explicit(&s->ws, memory_order_relaxed)) /* already the library's own: nothing */
            ws_write(s, NULL, 0);
        return;
    }
    ws_slot *s = ws_claim(h);
    if (s)
        ws_write(s, ws, size);
    else
        atomic_store(&ws_untracked, true);
}

void pl_handle_ws_forget(cublasHandle_t h)
{
    ws_slot *s = atomic_load_explicit(&ws_used, memory_order_relaxed) ? ws_find(h) : NULL;
    if (!s)
        return;
    ws_write(s, NULL, 0);
    cublasHandle_t k = h;
    if (atomic_compare_exchange_strong_explicit(&s->h, &k, NULL, memory_order_acq_rel, memory_order_relaxed))
        atomic_fetch_sub_explicit(&ws_used, 1, memory_order_relaxed);
}

void pl_handle_ws_now(cublasHandle_t h, void **ws, size_t *size)
{
    *ws = NULL, *size = 0;
    ws_slot *s = atomic_load_explicit(&ws_used, memory_order_relaxed) ? ws_find(h) : NULL;
    if (s)
        ws_pair(s, ws, size);
}

static bool ws_read(cublasHandle_t h, pl_handle_settings *s)
{
    s->ws = NULL, s->ws_size = 0;
    bool untracked = atomic_load_explicit(&ws_untracked, memory_order_relaxed);
    if (atomic_load_explicit(&ws_used, memory_order_relaxed) == 0 && !untracked)
        return true;
    ws_slot *w = ws_find(h);
    if (w)
        ws_pair(w, &s->ws, &s->ws_size);
    return w || !untracked;
}

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t h, void *ws, size_t size)
{
    TF_REAL_OR(cublasSetWorkspace_v2, TF_MISSING_CUBLAS);
    cublasStatus_t st = TF_PASS(real(h, ws, size));
    if (st == CUBLAS_STATUS_SUCCESS)
        pl_handle_ws_set(h, ws && size ? ws : NULL, ws && size ? size : 0);
    return st;
}

void pl_handle_ws_apply(cublasHandle_t h, void *ws, size_t size)
{
    pl_fn_cublasSetWorkspace_v2 set = TF_REAL(cublasSetWorkspace_v2);
    if (set && ws)
        set(h, ws, size);
}

/* One getter/setter pair a setting, through ints (every one is an enum or
 * an int). A library without the pair (older cuBLAS) has no such setting. */
#define SETTING(NAME, T)                                                       \
    static bool get_##NAME(cublasHandle_t h, int32_t *v)                       \
    {                                                                          \
        pl_fn_cublasGet##NAME get = TF_REAL(cublasGet##NAME);                  \
        T x;                                                                   \
        if (!get || get(h, &x) != CUBLAS_STATUS_SUCCESS)                       \
            return false;                                                      \
        *v = (int32_t)x;                                                       \
        return true;                                                           \
    }                                                                          \
    static void set_##NAME(cublasHandle_t h, int32_t v)                        \
    {                                                                          \
        pl_fn_cublasSet##NAME set = TF_REAL(cublasSet##NAME);                  \
        if (set)                                                               \
            set(h, (T)v);                                                      \
    }
SETTING(MathMode, cublasMath_t)
SETTING(AtomicsMode, cublasAtomicsMode_t)
SETTING(SmCountTarget, int)
SETTING(EmulationStrategy, cublasEmulationStrategy_t)
SETTING(EmulationSpecialValuesSupport, cudaEmulationSpecialValuesSupport)
SETTING(FixedPointEmulationMantissaControl, cudaEmulationMantissaControl)
SETTING(FixedPointEmulationMaxMantissaBitCount, int)
SETTING(FixedPointEmulationMantissaBitOffset, int)

typedef struct setting { bool (*get)(cublasHandle_t, int32_t *); void (*set)(cublasHandle_t, int32_t); } setting;
#define S(NAME) { get_##NAME, set_##NAME }
static const setting settings[PL_HS_N] = {
    S(MathMode), S(AtomicsMode), S(SmCountTarget), S(EmulationStrategy), S(EmulationSpecialValuesSupport),
    S(FixedPointEmulationMantissaControl), S(FixedPointEmulationMaxMantissaBitCount),
    S(FixedPointEmulationMantissaBitOffset),
};
#undef S

static void read_all(cublasHandle_t h, pl_handle_settings *s)
{
    s->have = 0;
    for (int i = 0; i < PL_HS_N; i++)
        if (settings[i].get(h, &s->v[i]))
            s->have |= 1u << i;
}

bool pl_handle_settings_read(cublasHandle_t h, pl_handle_settings *s)
{
    /* A bit-count pointer is an output cuBLAS writes (FP64 emulation):
     * memory transfold would have to describe. */
    int *bits = NULL;
    pl_fn_cublasGetFixedPointEmulationMantissaBitCountPointer get =
        TF_REAL(cublasGetFixedPointEmulationMantissaBitCountPointer);
    if (get && get(h, &bits) == CUBLAS_STATUS_SUCCESS && bits)
        return false;
    read_all(h, s);
    return ws_read(h, s);
}

void pl_handle_settings_apply(cublasHandle_t h, const pl_handle_settings *want, pl_handle_saved *saved)
{
    read_all(h, &saved->s);
    saved->changed = 0;
    for (int i = 0; i < PL_HS_N; i++) {
        uint32_t bit = 1u << i;
        if ((want->have & saved->s.have & bit) && want->v[i] != saved->s.v[i]) {
            settings[i].set(h, want->v[i]);
            saved->changed |= bit;
        }
    }
}

void pl_handle_settings_restore(cublasHandle_t h, const pl_handle_saved *saved)
{
    for (int i = 0; i < PL_HS_N; i++)
        if (saved->changed >> i & 1)
            settings[i].set(h, saved->s.v[i]);
}
