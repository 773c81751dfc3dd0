/* Describing a cublasLtMatmul for the engine: operands A and B (foldable
 * unless refused), D written, C read unless beta is a known zero. All of it
 * but the call's pointers and beta's value is decoded once per snapshot of
 * its five descriptors (the form, matmul.h); a call places its pointers. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lt/descriptors.h"
#include "lt/matmul.h"

/* op(A) is m x k, op(B) k x n, C and D m x n (the layouts' logical shapes,
 * whatever their order). */
static bool shapes(const lt_matmul_shadow *s, lt_matmul_form *f)
{
    const lt_layout *a = &s->l[LT_A], *b = &s->l[LT_B], *cl = &s->l[LT_C], *d = &s->l[LT_D];
    bool na = s->op[0] == CUBLAS_OP_N, nb = s->op[1] == CUBLAS_OP_N;
    int64_t am = na ? a->rows : a->cols, ak = na ? a->cols : a->rows;
    int64_t bk = nb ? b->rows : b->cols, bn = nb ? b->cols : b->rows;
    f->m = d->rows;
    f->n = d->cols;
    f->k = ak;
    return am == d->rows && bn == d->cols && ak == bk && cl->rows == d->rows && cl->cols == d->cols;
}

static bool fp8(cudaDataType t) { return t == CUDA_R_8F_E4M3 || t == CUDA_R_8F_E5M2; }

/* Why an operand must be read as it is, or NULL. */
static tf_reason operand_refusal(const lt_matmul_shadow *s, int i, bool mapped)
{
    if (fp8(s->l[LT_A].type) || fp8(s->l[LT_B].type))
        return TF_R_fp8_tn;
    if (s->scale_mode[i] != 0)
        return TF_R_block_scaled;
    if (!mapped)
        return TF_R_conj_row_order;
    return TF_R_NONE;
}

static void add_operand(const lt_matmul_shadow *s, lt_matmul_form *f, int i)
{
    tf_operand *o = &f->in[f->nin++];
    const lt_layout *l = &s->l[i];
    bool mapped = lt_op_to_engine(l, s->op[i], s->complex_type, &o->op);
    o->role = i == LT_A ? "A" : "B";
    o->v = lt_layout_view(l, NULL);
    o->refuse = operand_refusal(s, i, mapped);
}

static lt_beta_rule beta_rule(const lt_matmul_shadow *s)
{
    if (s->pointer_mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO)
        return LT_BETA_ZERO;
    bool host = s->pointer_mode == CUBLASLT_POINTER_MODE_HOST ||
                s->pointer_mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
    return host && s->stype != TF_S_NONE ? LT_BETA_HOST : LT_BETA_READ_C;
}

/* Everything of the description that does not depend on the call's
 * pointers or scalars (lt_matmul_form). */
static void form_make(lt_matmul_shadow *s)
{
    lt_matmul_form *f = &s->form;
    f->shaped = shapes(s, f);
    f->empty = f->m == 0 || f->n == 0 || s->l[LT_D].batch == 0;
    f->dtype = pl_cuda_dtype_name(s->l[LT_A].type);
    f->alpha_host = s->pointer_mode == CUBLASLT_POINTER_MODE_HOST && s->stype != TF_S_NONE && s->stype != TF_S_I32;
    f->nin = 0;
    if (f->k > 0) {
        add_operand(s, f, LT_A);
        add_operand(s, f, LT_B);
    }
    f->d = lt_layout_view(&s->l[LT_D], NULL);
    tf_view cv = lt_layout_view(&s->l[LT_C], NULL);
    f->c_bytes = tf_view_footprint(&cv).hi;
    f->beta = beta_rule(s);
    f->beta_size = f->beta == LT_BETA_HOST ? (uint32_t)pl_stype_size(s->stype) : 0;
    lt_matmul_side_form(s);
}

/* The matmul descriptor's attributes in one pass (ids are unique in a
 * set), each read as lt_attrs_int would read it: a program that makes its
 * descriptors per call has them decoded on every matmul. */
static void desc_decode(lt_matmul_shadow *s, int64_t *ta, int64_t *tb)
{
    int64_t scale = -1;
    *ta = *tb = CUBLAS_OP_N;
    s->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    s->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    s->scale_mode[0] = s->scale_mode[1] = 0;
    s->side_pointers = false;
    for (uint32_t i = 0; i < s->desc.n; i++) {
        const lt_attr *x = &s->desc.a[i];
        switch (x->id) {
        case CUBLASLT_MATMUL_DESC_TRANSA: *ta = lt_attr_int(x, CUBLAS_OP_N); break;
        case CUBLASLT_MATMUL_DESC_TRANSB: *tb = lt_attr_int(x, CUBLAS_OP_N); break;
        case CUBLASLT_MATMUL_DESC_SCALE_TYPE: scale = lt_attr_int(x, -1); break;
        case CUBLASLT_MATMUL_DESC_POINTER_MODE:
            s->pointer_mode = (int32_t)lt_attr_int(x, CUBLASLT_POINTER_MODE_HOST);
            break;
        case CUBLASLT_MATMUL_DESC_EPILOGUE: s->epilogue = (uint32_t)lt_attr_int(x, CUBLASLT_EPILOGUE_DEFAULT); break;
        case CUBLASLT_MATMUL_DESC_A_SCALE_MODE: s->scale_mode[0] = (int32_t)lt_attr_int(x, 0); break;
        case CUBLASLT_MATMUL_DESC_B_SCALE_MODE: s->scale_mode[1] = (int32_t)lt_attr_int(x, 0); break;
        default: s->side_pointers |= lt_matmul_side_pointer(x); break;
        }
    }
    s->stype = lt_scale_stype(scale);
}

/* Copies and decodes the five descriptors' shadows. */
static lt_described decode(const lt_matmul_call *c, lt_matmul_shadow *s)
{
    if (!lt_shadow_get(LT_MATMUL, c->desc, &s->desc))
        return LT_UNKNOWN;
    for (int i = 0; i < 4; i++) {
        if (!lt_shadow_get(LT_LAYOUT, c->lay[i], &s->lay[i]))
            return LT_UNKNOWN;
        s->l[i] = lt_layout_decode(&s->lay[i]);
        if (!s->l[i].plain)
            return LT_UNKNOWN;
    }
    int64_t ta, tb;
    desc_decode(s, &ta, &tb);
    if (!lt_op_valid(ta) || !lt_op_valid(tb))
        return LT_INVALID;
    s->op[0] = (cublasOperation_t)ta;
    s->op[1] = (cublasOperation_t)tb;
    s->complex_type = pl_cuda_dtype_complex(s->l[LT_A].type);
    form_make(s);
    return LT_DESCRIBED;
}

/* This thread's last snapshot, and the versions of the descriptors it was
 * read from (lt_shadow_versions): the steady state, a program calling again
 * with descriptors it did not change, reuses it instead of copying and
 * decoding five descriptors a call. One per thread: a call costs O(1)
 * however many descriptors, streams or threads the program has. */
typedef struct snapshot_cache {
    const void *desc[5];
    uint64_t version[5];
    uint64_t epoch;     /* lt_shadow_epoch before the versions were last found current */
    lt_described r;
    lt_matmul_shadow s;
    /* The description of this thread's current call: everything but the
     * access and the operands' addresses is the form's, written once per
     * decoding (gemm_template), so a call only places its pointers. */
    tf_gemm g;
} snapshot_cache;

static __thread snapshot_cache *tls_cache __attribute__((tls_model("initial-exec")));
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t snapshots_made;

static void make_key(void) { pthread_key_create(&cache_key, free); }

static snapshot_cache *thread_cache(void)
{
    if (!tls_cache && (tls_cache = calloc(1, sizeof *tls_cache))) {
        pthread_once(&cache_once, make_key);
        pthread_setspecific(cache_key, tls_cache); /* freed when the thread ends */
    }
    return tls_cache;
}

/* The form's GEMM fields, into the thread's description. */
static void gemm_template(tf_gemm *g, const lt_matmul_shadow *s)
{
    const lt_matmul_form *f = &s->form;
    tf_gemm_init(g, "cublasLtMatmul", 0);
    g->m = f->m;
    g->n = f->n;
    g->k = f->k;
    g->dtype = f->dtype;
    g->complex_type = s->complex_type;
    g->alpha_host = f->alpha_host;
    g->nin = f->nin;
    memcpy(g->in, f->in, sizeof g->in);
}

/* The same descriptors as the snapshot's, compared in place. */
static bool same_descs(const snapshot_cache *k, const lt_matmul_call *c)
{
    return k->desc[0] == c->desc && k->desc[1] == c->lay[0] && k->desc[2] == c->lay[1] &&
           k->desc[3] == c->lay[2] && k->desc[4] == c->lay[3];
}

/* The snapshot after some shadow changed, or for other descriptors: out
 * of line, so that the steady state does not pay for its stack frame. */
static __attribute__((noinline)) lt_described snapshot_check(const lt_matmul_call *c, uint64_t epoch,
                                                             snapshot_cache **out)
{
    static const lt_kind kinds[5] = {LT_MATMUL, LT_LAYOUT, LT_LAYOUT, LT_LAYOUT, LT_LAYOUT};
    snapshot_cache *k;
    if (!c->desc || !c->lay[0] || !c->lay[1] || !c->lay[2] || !c->lay[3])
        return LT_INVALID;
    if (!(k = thread_cache()))
        return LT_UNKNOWN;
    *out = k;
    const void *desc[5] = {c->desc, c->lay[0], c->lay[1], c->lay[2], c->lay[3]};
    uint64_t version[5];
    bool same = same_descs(k, c);
    lt_shadow_versions(5, kinds, desc, version);
    k->epoch = 0;
    for (int i = 0; i < 5; i++)
        if (!version[i])
            return LT_UNKNOWN;
    k->epoch = epoch;
    if (same && memcmp(k->version, version, sizeof version) == 0)
        return k->r;
    /* A SetAttribute between the two reads leaves a newer copy under the
     * older versions: the next call sees them differ and decodes again. */
    memset(k->version, 0, sizeof k->version);
    k->r = decode(c, &k->s);
    if (k->r == LT_DESCRIBED)
        gemm_template(&k->g, &k->s);
    k->s.snapshot = atomic_fetch_add(&snapshots_made, 1) + 1;
    memcpy(k->desc, desc, sizeof desc);
    memcpy(k->version, version, sizeof version);
    return k->r;
}

/* LT_INVALID when a descriptor is NULL (cuBLASLt rejects the call). */
static lt_described snapshot(const lt_matmul_call *c, snapshot_cache **out)
{
    /* No shadow changed since this snapshot was found current: the same
     * descriptors have the same versions, without asking (five lookups
     * under the shadow lock). A snapshot only ever holds non-NULL
     * descriptors (k->epoch is 0 until one is found current), so a NULL
     * one never passes here. */
    uint64_t epoch = lt_shadow_epoch();
    snapshot_cache *k = tls_cache;
    if (k && epoch && k->epoch == epoch && same_descs(k, c)) {
        *out = k;
        return k->r;
    }
    return snapshot_check(c, epoch, out);
}

static void side_access(const lt_matmul_call *c, const lt_matmul_shadow *s, tf_access *acc);

/* Whether C goes unread: beta is a known 0. */
static bool beta_zero(const lt_matmul_call *c, const lt_matmul_shadow *s)
{
    switch (s->form.beta) {
    case LT_BETA_ZERO:
        return true;
    case LT_BETA_HOST:
        break;
    case LT_BETA_READ_C:
        return false;
    }
    if (!c->beta)
        return false;
    /* pl_scalar_load with the copy's size known to the compiler: no
     * memset and no library memcpy for a scalar of a few bytes. */
    pl_scalar beta = { .z = { 0, 0 } };
    switch (s->form.beta_size) {
    case 2: memcpy(&beta, c->beta, 2); break;
    case 4: memcpy(&beta, c->beta, 4); break;
    case 8: memcpy(&beta, c->beta, 8); break;
    case 16: memcpy(&beta, c->beta, 16); break;
    default: beta = pl_scalar_load(s->stype, c->beta); break;
    }
    return pl_scalar_is_zero(s->stype, &beta);
}

/* The snapshot's form with this call's pointers placed: the same views
 * and ranges, in the same order, as describing the call from scratch. */
lt_described lt_matmul_describe(const lt_matmul_call *c, const lt_matmul_shadow **sp, const tf_gemm **gp)
{
    if (!c->handle || !c->alpha)
        return LT_INVALID;
    snapshot_cache *k = NULL;
    lt_described r = snapshot(c, &k);
    if (k)
        *sp = &k->s;
    if (r != LT_DESCRIBED)
        return r;
    const lt_matmul_shadow *s = &k->s;
    const lt_matmul_form *f = &s->form;
    tf_gemm *g = &k->g;
    tf_access_init(&g->acc, "cublasLtMatmul", TF_STREAM(c->stream));
    if (!f->shaped)
        return LT_INVALID;
    g->in[0].v.addr = TF_ADDR(c->ptr[LT_A]);
    g->in[1].v.addr = TF_ADDR(c->ptr[LT_B]);
    tf_view d = f->d;
    d.addr = TF_ADDR(c->ptr[LT_D]);
    tf_access_write(&g->acc, d);
    if (!beta_zero(c, s))
        tf_access_read(&g->acc, (tf_range){ TF_ADDR(c->ptr[LT_C]), TF_ADDR(c->ptr[LT_C]) + f->c_bytes });
    side_access(c, s, &g->acc);
    *gp = g;
    return LT_DESCRIBED;
}

/* Adds what `part` lists, in its order, as if its accesses were made on
 * `acc` directly (overflowing the same way). */
static void append(tf_access *acc, const tf_access *part)
{
    for (int i = 0; i < part->nreads; i++)
        tf_access_read(acc, part->reads[i]);
    for (int i = 0; i < part->nwrites; i++)
        tf_access_write(acc, part->writes[i]);
    acc->unknown |= part->unknown;
    acc->overflow |= part->overflow;
}

/* What the call touches besides A, B, C and D, in the order the engine
 * has always been told: epilogue buffers, alpha and beta behind device
 * pointers, FP8 scales, then the workspace it scribbles on. */
static void side_access(const lt_matmul_call *c, const lt_matmul_shadow *s, tf_access *acc)
{
    const lt_matmul_form *f = &s->form;
    if (s->side_pointers)
        append(acc, &f->side_pre);
    if (f->read_alpha)
        tf_access_read(acc, pl_bytes(c->alpha, f->alpha_bytes));
    if (f->read_beta)
        tf_access_read(acc, pl_bytes(c->beta, f->beta_bytes));
    if (s->side_pointers)
        append(acc, &f->side_post);
    if (c->workspace && c->workspace_size)
        tf_access_write(acc, tf_view_dense(TF_ADDR(c->workspace), c->workspace_size));
}
