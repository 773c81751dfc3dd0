/* The folded-call cache (fold_cache.h): fold signatures, then the cache
 * keyed on them. */
#include "lt/fold_cache.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lt/descriptors.h"
#include "lt/locks.h"
#include "core/state.h"

/* Building fold signatures. Pointer attributes enter by alignment only:
 * programs (PyTorch's addmm) set a new bias or aux pointer on every call,
 * and the heuristic only looks at how they are aligned. */
uint32_t lt_align(const void *p)
{
    /* The lowest set bit, capped at 256: with bit 8 set it is at most 256,
     * and a null pointer gets 256 as well. */
    uintptr_t a = (uintptr_t)p | 256;
    return (uint32_t)(a & -a);
}

const void *lt_fold_ptr(const lt_matmul_call *c, const lt_fold *f, int i)
{
    return i < 2 && f->folded[i] ? f->ptr[i] : c->ptr[i];
}

static unsigned char *put_attrs(unsigned char *at, const lt_attrs *a, bool desc)
{
    size_t n = a->n * sizeof a->a[0];
    memcpy(at, a->a, n);
    for (uint32_t i = 0; desc && i < a->n; i++) {
        lt_attr *x = (lt_attr *)(void *)(at + i * sizeof a->a[0]);
        if (!lt_attr_is_pointer(x->id) || x->size != sizeof(uint64_t))
            continue;
        uint64_t p, cls;
        memcpy(&p, x->v, sizeof p);
        cls = p ? lt_align((const void *)(uintptr_t)p) : 0;
        memcpy(x->v, &cls, sizeof cls);
    }
    return at + n;
}

void lt_fold_key_make(lt_fold_key *k, const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f)
{
    lt_fold_key_head h;
    memset(&h, 0, sizeof h);
    h.handle = TF_ADDR(c->handle);
    h.workspace = c->workspace_size;
    for (int i = 0; i < 4; i++)
        h.align[i] = lt_align(lt_fold_ptr(c, f, i));
    h.nattrs[0] = s->desc.n;
    for (int i = 0; i < 4; i++)
        h.nattrs[1 + i] = s->lay[i].n;
    for (int i = 0; i < 2; i++) {
        h.folded[i] = f->folded[i];
        h.op[i] = f->folded[i] ? (int32_t)f->op[i] : 0;
        h.ld[i] = f->folded[i] ? f->ld[i] : 0;
        h.stride[i] = f->folded[i] ? f->stride[i] : 0;
    }
    memcpy(k->bytes, &h, sizeof h);
    unsigned char *at = put_attrs(k->bytes + sizeof h, &s->desc, true);
    for (int i = 0; i < 4; i++)
        at = put_attrs(at, &s->lay[i], false);
    k->len = (size_t)(at - k->bytes);
}

uint32_t lt_fold_key_hash(const void *key, size_t len)
{
    uint64_t h = 1469598103934665603ull, w;
    for (size_t i = 0; i + sizeof w <= len; i += sizeof w) {
        memcpy(&w, (const unsigned char *)key + i, sizeof w);
        h = (h ^ w) * 1099511628211ull;
    }
    return (uint32_t)(h ^ (h >> 32));
}

/* The folded-call cache. Entries are immutable once published and live
 * until their handle is destroyed, so a caller may use one after the lock
 * is released. A miss builds the derived descriptors and asks the
 * heuristic once; a failure is cached too, so a layout the library rejects
 * costs one query, not one per call. */
#define HASH_FUNCTION(key, len, hashv) ((hashv) = lt_fold_key_hash((key), (len)))
#include <uthash.h>

#define LT_FOLD_CACHE_MAX 1024

struct lt_fold_entry {
    unsigned char *key;
    size_t keylen;
    cublasLtHandle_t handle;
    bool usable;                       /* descriptors built and an algorithm found */
    tf_reason why;                     /* else why not */
    cublasLtMatmulAlgo_t algo;
    cublasLtMatrixLayout_t lay[2];
    cublasLtMatmulDesc_t desc;
    lt_attrs *desc_attrs;              /* exactly what desc was built from */
    UT_hash_handle hh;
};

static lt_fold_entry *lt_folds; /* by signature: O(1) a lookup, at most LT_FOLD_CACHE_MAX */
static unsigned lt_fold_count;
static _Atomic uint64_t lt_fold_generation; /* bumped whenever entries leave the cache */

/* This thread's last usable entry and what it was looked up with: the same
 * decoded descriptors (lt_matmul_shadow.snapshot), handle, workspace,
 * alignments and fold shape find the same entry, so the steady state skips
 * building and hashing the signature (O(1), one per thread). Valid while no
 * entry has left the cache since (the generation). */
typedef struct fold_hit {
    uint64_t snapshot, generation;
    cublasLtHandle_t handle;
    size_t workspace;
    uint32_t align[4];
    lt_fold f;
    lt_fold_entry *e;
} fold_hit;

static __thread fold_hit lt_hot __attribute__((tls_model("initial-exec")));

/* Same folds: which operands, their ops, ld and strides (pointers enter
 * through their alignment). */
static bool same_fold(const lt_fold *x, const lt_fold *y)
{
    for (int i = 0; i < 2; i++)
        if (x->folded[i] != y->folded[i] ||
            (x->folded[i] && (x->engine_op[i] != y->engine_op[i] || x->ld[i] != y->ld[i] ||
                              x->stride[i] != y->stride[i])))
            return false;
    return true;
}

static void hot_key(fold_hit *h, const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f)
{
    h->snapshot = s->snapshot;
    h->handle = c->handle;
    h->workspace = c->workspace_size;
    for (int i = 0; i < 4; i++)
        h->align[i] = lt_align(lt_fold_ptr(c, f, i));
    h->f = *f;
}

/* Compared in place, cheapest tests first: no key is built on a hit. */
static lt_fold_entry *hot_entry(const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f)
{
    const fold_hit *h = &lt_hot;
    if (!h->e || h->snapshot != s->snapshot || h->handle != c->handle || h->workspace != c->workspace_size ||
        h->generation != atomic_load(&lt_fold_generation) || !same_fold(f, &h->f))
        return NULL;
    bool aligned = h->align[0] == lt_align(lt_fold_ptr(c, f, 0)) && h->align[1] == lt_align(lt_fold_ptr(c, f, 1)) &&
                   h->align[2] == lt_align(c->ptr[LT_C]) && h->align[3] == lt_align(c->ptr[LT_D]);
    return aligned ? h->e : NULL;
}

/* The program's descriptor with the folded operands' ops. */
static void exact_desc(const lt_matmul_shadow *s, const lt_fold *f, lt_attrs *out)
{
    static const int32_t trans[2] = { CUBLASLT_MATMUL_DESC_TRANSA, CUBLASLT_MATMUL_DESC_TRANSB };
    lt_attrs_copy(out, &s->desc);
    for (int i = 0; i < 2; i++)
        if (f->folded[i])
            lt_attrs_set_i32(out, trans[i], (int32_t)f->op[i]);
}

static bool query(lt_fold_entry *e, const lt_matmul_call *c, const lt_fold *f)
{
    static const int32_t align_attr[4] = {
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES };
    lt_attrs pa;
    lt_attrs_clear(&pa);
    lt_attrs_set_u64(&pa, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, c->workspace_size);
    for (int i = 0; i < 4; i++) {
        uint32_t a = lt_align(lt_fold_ptr(c, f, i));
        lt_attrs_set(&pa, align_attr[i], &a, sizeof a);
    }
    void *pref;
    if (lt_build(LT_PREF, &pa, &pref) != CUBLAS_STATUS_SUCCESS)
        return false;
    cublasLtMatmulHeuristicResult_t r;
    memset(&r, 0, sizeof r);
    int n = 0;
    cublasStatus_t st = TF_PASS(TF_REAL(cublasLtMatmulAlgoGetHeuristic)(
        c->handle, e->desc, e->lay[0] ? e->lay[0] : c->lay[LT_A], e->lay[1] ? e->lay[1] : c->lay[LT_B],
        c->lay[LT_C], c->lay[LT_D], pref, 1, &r, &n));
    lt_unbuild(LT_PREF, pref);
    e->algo = r.algo;
    return st == CUBLAS_STATUS_SUCCESS && n > 0 && r.state == CUBLAS_STATUS_SUCCESS;
}

static tf_reason fill(lt_fold_entry *e, const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f,
                        const lt_attrs *exact)
{
    for (int i = 0; i < 2; i++) {
        if (!f->folded[i])
            continue;
        lt_attrs la;
        lt_attrs_copy(&la, &s->lay[i]);
        lt_layout_folded(&la, &s->l[i], f->ld[i], f->stride[i]);
        if (lt_build(LT_LAYOUT, &la, (void **)&e->lay[i]) != CUBLAS_STATUS_SUCCESS)
            return TF_R_lt_rejected_layout;
    }
    if (lt_build(LT_MATMUL, exact, (void **)&e->desc) != CUBLAS_STATUS_SUCCESS)
        return TF_R_lt_rejected_desc;
    if (!(e->desc_attrs = malloc(lt_attrs_used(exact))))
        return TF_R_out_of_memory;
    lt_attrs_copy(e->desc_attrs, exact);
    return query(e, c, f) ? TF_R_NONE : TF_R_lt_no_algorithm;
}

static void entry_free(lt_fold_entry *e)
{
    lt_unbuild(LT_MATMUL, e->desc);
    lt_unbuild(LT_LAYOUT, e->lay[0]);
    lt_unbuild(LT_LAYOUT, e->lay[1]);
    free(e->desc_attrs);
    free(e->key);
    free(e);
}

static lt_fold_entry *entry_new(const lt_fold_key *k, const lt_matmul_call *c, const lt_matmul_shadow *s,
                                const lt_fold *f, const lt_attrs *exact)
{
    lt_fold_entry *e = calloc(1, sizeof *e);
    if (!e || !(e->key = malloc(k->len))) {
        free(e);
        return NULL;
    }
    memcpy(e->key, k->bytes, k->len);
    e->keylen = k->len;
    e->handle = c->handle;
    e->why = fill(e, c, s, f, exact);
    e->usable = !e->why;
    return e;
}

/* The cached entry for the key, made on a miss. *own is set when the
 * cache is full and the caller must free the entry itself. */
static lt_fold_entry *lookup(const lt_fold_key *k, const lt_matmul_call *c, const lt_matmul_shadow *s,
                             const lt_fold *f, const lt_attrs *exact, bool *own)
{
    lt_fold_entry *e = NULL;
    *own = false;
    lt_lock(LT_LOCK_FOLD);
    HASH_FIND(hh, lt_folds, k->bytes, k->len, e);
    if (!e && (e = entry_new(k, c, s, f, exact))) {
        *own = lt_fold_count >= LT_FOLD_CACHE_MAX;
        if (!*own) {
            HASH_ADD_KEYPTR(hh, lt_folds, e->key, e->keylen, e);
            lt_fold_count++;
        }
    }
    lt_unlock(LT_LOCK_FOLD);
    return e;
}

static void use_entry(const lt_fold_entry *e, lt_folded *out)
{
    out->lay[0] = e->lay[0];
    out->lay[1] = e->lay[1];
    out->algo = &e->algo;
    out->desc = e->desc;
}

/* A miss of this thread's hot entry: the signature, then the cache. Kept
 * out of line, so that a hit does not pay for this path's stack frame
 * (the key alone is kilobytes). */
static __attribute__((noinline)) tf_reason prepare_cached(const lt_matmul_call *c, const lt_matmul_shadow *s,
                                                          const lt_fold *plan, lt_folded *out)
{
    lt_fold fold = *plan, *f = &fold;
    for (int i = 0; i < 2; i++)
        if (f->folded[i] && !lt_op_from_engine(&s->l[i], f->engine_op[i], s->complex_type, &f->op[i]))
            return TF_R_conj_row_order;
    uint64_t generation = atomic_load(&lt_fold_generation);
    lt_fold_key key;
    lt_attrs exact;
    lt_fold_key_make(&key, c, s, f);
    exact_desc(s, f, &exact);
    bool own;
    lt_fold_entry *e = lookup(&key, c, s, f, &exact, &own);
    if (!e)
        return TF_R_out_of_memory;
    out->own_entry = own ? e : NULL;
    if (!e->usable)
        return e->why;
    use_entry(e, out);
    if (!lt_attrs_equal(e->desc_attrs, &exact)) {
        if (lt_build(LT_MATMUL, &exact, (void **)&out->own_desc) != CUBLAS_STATUS_SUCCESS)
            return TF_R_lt_rejected_desc;
        out->desc = out->own_desc;
    } else if (!own) { /* the cached entry serves this call as it is */
        hot_key(&lt_hot, c, s, f);
        lt_hot.generation = generation;
        lt_hot.e = e;
    }
    return TF_R_NONE;
}

tf_reason lt_fold_prepare(const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f, lt_folded *out)
{
    memset(out, 0, sizeof *out);
    lt_fold_entry *hot = hot_entry(c, s, f);
    if (!hot)
        return prepare_cached(c, s, f, out);
    use_entry(hot, out);
    return TF_R_NONE;
}

void lt_fold_release_owned(lt_folded *out)
{
    if (out->own_desc)
        lt_unbuild(LT_MATMUL, out->own_desc);
    if (out->own_entry)
        entry_free(out->own_entry);
    memset(out, 0, sizeof *out);
}

void lt_fold_forget_handle(cublasLtHandle_t h)
{
    lt_fold_entry *e, *tmp;
    lt_lock(LT_LOCK_FOLD);
    HASH_ITER(hh, lt_folds, e, tmp) {
        if (e->handle != h)
            continue;
        HASH_DEL(lt_folds, e);
        lt_fold_count--;
        atomic_fetch_add(&lt_fold_generation, 1);
        entry_free(e);
    }
    lt_unlock(LT_LOCK_FOLD);
}
