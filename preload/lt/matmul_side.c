/* What a cublasLtMatmul touches besides A, B, C and D, as far as its
 * descriptors say: epilogue bias and aux buffers (inputs or outputs by
 * epilogue), FP8 scale and amax scalars, and the size of alpha and beta
 * behind device pointers. Decoded once per snapshot into the call's form
 * (matmul.h); matmul_describe.c places the call's own pointers. */
#include "lt/descriptors.h"
#include "lt/matmul.h"

#define LT_EPI_BGRAD 16u  /* DRELU_BGRAD, DGELU_BGRAD: the bias pointer is an output */
#define LT_EPI_AUX 128u   /* an aux buffer: written by forward epilogues, read by backward ones */
#define LT_EPI_BACKWARD (8u | 64u)
#define LT_EPI_RELU_MASK (2u | 8u) /* ReLU aux is a bit-mask */

/* Bytes of `len` elements per batch, `batch` batches `bs` elements apart. */
static uint64_t span_bytes(uint64_t elem, int64_t len, int64_t batch, int64_t bs)
{
    int64_t n = len + (batch > 1 && bs > 0 ? (batch - 1) * bs : 0);
    return (uint64_t)(n > 0 ? n : 0) * elem;
}

static tf_range span(const void *p, uint64_t elem, int64_t len, int64_t batch, int64_t bs)
{
    return pl_bytes(p, span_bytes(elem, len, batch, bs));
}

static const void *desc_ptr(const lt_matmul_shadow *s, int32_t id)
{
    return (const void *)(uintptr_t)lt_attrs_u64(&s->desc, id, 0);
}

static uint32_t type_size_or(const lt_matmul_shadow *s, int32_t id, uint32_t dflt)
{
    int64_t t = lt_attrs_int(&s->desc, id, -1);
    return t == -1 ? dflt : pl_cuda_dtype_size((cudaDataType)t);
}

static void bias_access(const lt_matmul_shadow *s, tf_access *acc)
{
    uint32_t e = s->epilogue;
    bool out = (e & (LT_EPI_BGRAD | CUBLASLT_EPILOGUE_BGRADA | CUBLASLT_EPILOGUE_BGRADB)) != 0;
    bool in = !out && (e & CUBLASLT_EPILOGUE_BIAS);
    const void *bias = desc_ptr(s, CUBLASLT_MATMUL_DESC_BIAS_POINTER);
    if ((!in && !out) || !bias)
        return;
    const lt_layout *d = &s->l[LT_D];
    int64_t len = e == CUBLASLT_EPILOGUE_BGRADB ? d->cols : d->rows;
    uint32_t elem = type_size_or(s, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, d->elem);
    int64_t bs = lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, 0);
    tf_range r = span(bias, elem ? elem : 16, len, d->batch, bs);
    if (out)
        tf_access_write(acc, tf_view_dense(r.lo, r.hi - r.lo));
    else
        tf_access_read(acc, r);
}

static void aux_access(const lt_matmul_shadow *s, tf_access *acc)
{
    uint32_t e = s->epilogue;
    const void *aux = desc_ptr(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER);
    if (!(e & LT_EPI_AUX) || !aux)
        return;
    const lt_layout *d = &s->l[LT_D];
    int64_t ld = lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, 0);
    int64_t bs = lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, 0);
    int64_t cols = d->cols > 0 ? d->cols : 1;
    int64_t len = (cols - 1) * (ld > d->rows ? ld : d->rows) + d->rows;
    tf_range r;
    if (e & LT_EPI_RELU_MASK) { /* ld and stride count bits */
        r = span(aux, 1, len, d->batch, bs);
        r.hi = r.lo + (r.hi - r.lo + 7) / 8;
    } else {
        uint32_t elem = type_size_or(s, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, d->elem);
        r = span(aux, elem ? elem : 16, len, d->batch, bs);
    }
    if (e & LT_EPI_BACKWARD)
        tf_access_read(acc, r);
    else
        tf_access_write(acc, tf_view_dense(r.lo, r.hi - r.lo));
}

/* FP8 per-tensor scales are one compute-type scalar (read as 8 bytes to
 * be safe, amax written as the float it is);
 * block scales have layouts of their own, which transfold does not
 * describe. */
static void fp8_access(const lt_matmul_shadow *s, tf_access *acc)
{
    static const int32_t reads[][2] = {
        { CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_A_SCALE_MODE },
        { CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_MODE },
        { CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, CUBLASLT_MATMUL_DESC_C_SCALE_MODE },
        { CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_SCALE_MODE },
        { CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE },
        { CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE },
    };
    static const int32_t writes[] = { CUBLASLT_MATMUL_DESC_AMAX_D_POINTER,
                                      CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER };
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        const void *p = desc_ptr(s, reads[i][0]);
        if (p && lt_attrs_int(&s->desc, reads[i][1], 0) != 0)
            acc->unknown = true;
        else if (p)
            tf_access_read(acc, pl_bytes(p, 8));
    }
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        const void *p = desc_ptr(s, writes[i]);
        if (p)
            tf_access_write(acc, tf_view_dense(TF_ADDR(p), 4));
    }
}

bool lt_matmul_side_pointer(const lt_attr *a)
{
    return lt_attr_is_pointer(a->id) && lt_attr_u64(a, 0) != 0;
}

/* Alpha and beta behind device pointers: one scalar each, or vectors of
 * D's rows (alpha's batched by ALPHA_VECTOR_BATCH_STRIDE). */
static void scalar_form(const lt_matmul_shadow *s, lt_matmul_form *f)
{
    int32_t pm = s->pointer_mode;
    f->read_alpha = f->read_beta = pm != CUBLASLT_POINTER_MODE_HOST;
    f->alpha_bytes = f->beta_bytes = 0;
    if (pm == CUBLASLT_POINTER_MODE_HOST)
        return;
    uint64_t elem = s->stype == TF_S_NONE ? 16 : pl_stype_size(s->stype);
    const lt_layout *d = &s->l[LT_D];
    if (pm == CUBLASLT_POINTER_MODE_DEVICE) {
        f->alpha_bytes = f->beta_bytes = elem;
        return;
    }
    int64_t bs = lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, 0);
    f->alpha_bytes = span_bytes(elem, d->rows, d->batch, bs);
    f->read_beta = pm == CUBLASLT_POINTER_MODE_DEVICE_VECTOR;
    if (f->read_beta)
        f->beta_bytes = span_bytes(elem, d->rows, 1, 0);
}

void lt_matmul_side_form(lt_matmul_shadow *s)
{
    tf_access_init(&s->form.side_pre, NULL, 0);
    tf_access_init(&s->form.side_post, NULL, 0);
    scalar_form(s, &s->form);
    if (!s->side_pointers)
        return;
    bias_access(s, &s->form.side_pre);
    aux_access(s, &s->form.side_pre);
    fp8_access(s, &s->form.side_post);
}
