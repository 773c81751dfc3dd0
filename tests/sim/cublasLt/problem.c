/* Validation of a cublasLtMatmul problem, in the order the arguments are
 * documented: operation descriptor, layouts, shapes, types, epilogue. */
#include "problem.h"
#include "scale_modes.h"
#include "tiled.h"

const char *simlt_op_name(int32_t op)
{
    return op == CUBLAS_OP_N ? "N" : op == CUBLAS_OP_T ? "T" : op == CUBLAS_OP_C ? "C" : "?";
}

static bool narrow(uint32_t t)
{
    return sim_elem_fp8((cudaDataType)t) || t == CUDA_R_4F_E2M1;
}

/* Row-ordered A may only be read as stored; FP8 and FP4 run only TN with
 * column order, as on Hopper, Ada and Blackwell (see heuristic.c). */
bool simlt_unsupported_combo(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b)
{
    if (a->order == CUBLASLT_ORDER_ROW && desc->transa != CUBLAS_OP_N)
        return true;
    if (!narrow(a->type) && !narrow(b->type))
        return false;
    return desc->transa != CUBLAS_OP_T || desc->transb != CUBLAS_OP_N || a->order != CUBLASLT_ORDER_COL ||
           b->order != CUBLASLT_ORDER_COL;
}

/* Pointer-array batches (A, B, C, D given as device arrays of pointers,
 * one matrix each; matmul.c runs them one by one): all four layouts in that
 * mode, with no per-batch epilogue data, vector alpha or FP8 scaling, which
 * the stand-in only strides, and no planar complex. */
static cublasStatus_t check_arrays(const simlt_matmul_desc *desc, const simlt_layout *const ls[4])
{
    int arrays = 0, planar = 0;
    for (int i = 0; i < 4; i++) {
        arrays += ls[i]->batch_mode == CUBLASLT_BATCH_MODE_POINTER_ARRAY;
        planar += ls[i]->plane_offset != 0;
    }
    if (arrays == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (planar)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    bool plain = desc->epilogue == CUBLASLT_EPILOGUE_DEFAULT && desc->pointer_mode <= CUBLASLT_POINTER_MODE_DEVICE &&
                 !desc->a_scale && !desc->b_scale && !desc->c_scale && !desc->d_scale && !desc->amax_d;
    return arrays == 4 && plain ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

static cublasStatus_t check_layouts(const simlt_layout *const ls[4])
{
    for (int i = 0; i < 4; i++) {
        simlt_layout l = *ls[i]; /* a pointer array is checked as one matrix a batch */
        if (l.batch_mode == CUBLASLT_BATCH_MODE_POINTER_ARRAY)
            l.batch_mode = CUBLASLT_BATCH_MODE_STRIDED;
        /* Planar complex (planar.c): complex types only. */
        if (l.plane_offset != 0 && !sim_elem_complex((cudaDataType)l.type))
            return CUBLAS_STATUS_NOT_SUPPORTED;
        l.plane_offset = 0;
        cublasStatus_t st = simlt_layout_check(&l);
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* op(A) is m x k, op(B) k x n, C and D m x n, every batch count equal. */
static cublasStatus_t check_shapes(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                                   const simlt_layout *c, const simlt_layout *d, sim_gemm *g)
{
    uint64_t am, ak, bk, bn;
    simlt_stored_dims((cublasOperation_t)desc->transa, a->rows, a->cols, &am, &ak);
    simlt_stored_dims((cublasOperation_t)desc->transb, b->rows, b->cols, &bk, &bn);
    if (am != d->rows || bn != d->cols || ak != bk || c->rows != d->rows || c->cols != d->cols)
        return CUBLAS_STATUS_INVALID_VALUE;
    int32_t bc = d->batch_count;
    if (a->batch_count != bc || b->batch_count != bc || c->batch_count != bc)
        return CUBLAS_STATUS_INVALID_VALUE;
    g->m = (int64_t)d->rows;
    g->n = (int64_t)d->cols;
    g->k = (int64_t)ak;
    g->batch = bc;
    return CUBLAS_STATUS_SUCCESS;
}

static bool pointer_mode_ok(int32_t pm)
{
    return pm >= CUBLASLT_POINTER_MODE_HOST && pm <= CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
}

/* IMMA matmuls take A COL32 (N), B COL4_4R2_8C or COL32_2R_4R4 (T), C and D
 * COL32, as NVIDIA's LtIgemmTensor sample runs them, or every matrix in
 * column order with TN. The IMMA orders carry no other type. */
static cublasStatus_t check_imma(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                                 const simlt_layout *c, const simlt_layout *d)
{
    bool imma = simlt_imma_types_ok(desc->compute, desc->scale, (cudaDataType)a->type, (cudaDataType)b->type,
                                    (cudaDataType)c->type, (cudaDataType)d->type);
    bool tiled = a->order == CUBLASLT_ORDER_COL32 && desc->transa == CUBLAS_OP_N && desc->transb == CUBLAS_OP_T &&
                 (b->order == CUBLASLT_ORDER_COL4_4R2_8C || b->order == CUBLASLT_ORDER_COL32_2R_4R4) &&
                 c->order == CUBLASLT_ORDER_COL32 && d->order == CUBLASLT_ORDER_COL32;
    bool col = a->order == CUBLASLT_ORDER_COL && b->order == CUBLASLT_ORDER_COL && c->order == CUBLASLT_ORDER_COL &&
               d->order == CUBLASLT_ORDER_COL && desc->transa == CUBLAS_OP_T && desc->transb == CUBLAS_OP_N;
    return imma && (tiled || col) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

static bool any_tiled(const simlt_layout *const ls[4])
{
    for (int i = 0; i < 4; i++)
        if (simlt_tiled(ls[i]))
            return true;
    return false;
}

static cublasStatus_t check_types(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                                  const simlt_layout *c, const simlt_layout *d)
{
    cudaDataType at = (cudaDataType)a->type, bt = (cudaDataType)b->type;
    cudaDataType ct = (cudaDataType)c->type, dt = (cudaDataType)d->type;
    const simlt_layout *const ls[4] = {a, b, c, d};
    if (desc->compute == CUBLAS_COMPUTE_32I || desc->compute == CUBLAS_COMPUTE_32I_PEDANTIC || any_tiled(ls))
        return check_imma(desc, a, b, c, d);
    if (at == CUDA_R_4F_E2M1 || bt == CUDA_R_4F_E2M1)
        return simlt_fp4_types_ok(desc->compute, desc->scale, at, bt, ct, dt) ? CUBLAS_STATUS_SUCCESS
                                                                              : CUBLAS_STATUS_NOT_SUPPORTED;
    if (sim_elem_fp8(at) || sim_elem_fp8(bt))
        return simlt_fp8_types_ok(desc->compute, desc->scale, at, bt, ct, dt) ? CUBLAS_STATUS_SUCCESS
                                                                              : CUBLAS_STATUS_NOT_SUPPORTED;
    if (at != bt || ct != dt || !simcublasLt_types_ok((cublasComputeType_t)desc->compute,
                                                      (cudaDataType)desc->scale, at, ct))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    /* Scaling and amax exist only for FP8 data; the header documents
     * INVALID_VALUE for other types. */
    if (desc->a_scale || desc->b_scale || desc->c_scale || desc->d_scale || desc->amax_d)
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/* DEFAULT, BIAS, RELU(_BIAS), GELU(_BIAS) and GELU_AUX(_BIAS) on real data. */
static cublasStatus_t set_epilogue(const simlt_matmul_desc *desc, const simlt_layout *c, const simlt_layout *d,
                                   sim_gemm *g)
{
    uint32_t e = desc->epilogue;
    uint32_t base = e & ~(uint32_t)(CUBLASLT_EPILOGUE_BIAS | 128);
    if (e == CUBLASLT_EPILOGUE_DEFAULT)
        return CUBLAS_STATUS_SUCCESS;
    if (base != 0 && base != CUBLASLT_EPILOGUE_RELU && base != CUBLASLT_EPILOGUE_GELU)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    /* The RELU bit-mask aux and FP8 aux outputs are not run. */
    if ((e & 128) && (base != CUBLASLT_EPILOGUE_GELU || sim_elem_fp8((cudaDataType)d->type)))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (sim_elem_complex((cudaDataType)d->type))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    g->act = base == CUBLASLT_EPILOGUE_RELU ? SIM_ACT_RELU : base == CUBLASLT_EPILOGUE_GELU ? SIM_ACT_GELU
                                                                                             : SIM_ACT_NONE;
    if (e & CUBLASLT_EPILOGUE_BIAS) {
        /* Default bias type: D's, or C's 16-bit type when D is FP8. */
        uint32_t deflt = sim_elem_fp8((cudaDataType)d->type) ? c->type : d->type;
        int32_t bt = desc->bias_type == -1 ? (int32_t)deflt : desc->bias_type;
        if (!sim_elem_size((cudaDataType)bt) || sim_elem_complex((cudaDataType)bt))
            return CUBLAS_STATUS_NOT_SUPPORTED;
        g->bias_type = (cudaDataType)bt;
        g->bias_bs = desc->bias_bs;
    }
    if ((e & 128) && (desc->aux_ld < (int64_t)d->rows || (desc->aux_type != -1 && desc->aux_type != (int32_t)d->type)))
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simlt_problem(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                             const simlt_layout *c, const simlt_layout *d, sim_gemm *g)
{
    const simlt_layout *const ls[4] = {a, b, c, d};
    if (!desc || !a || !b || !c || !d)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!simlt_op_ok(desc->transa) || !simlt_op_ok(desc->transb) || !pointer_mode_ok(desc->pointer_mode))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (desc->transc != CUBLAS_OP_N || desc->fill != CUBLAS_FILL_MODE_FULL)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    *g = (sim_gemm){0};
    cublasStatus_t st = check_layouts(ls);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_arrays(desc, ls);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_shapes(desc, a, b, c, d, g);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_types(desc, a, b, c, d);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = simlt_scales_check(desc, a, b, d, g->k, g->batch);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = set_epilogue(desc, c, d, g);
    if (st == CUBLAS_STATUS_SUCCESS && simlt_unsupported_combo(desc, a, b))
        st = CUBLAS_STATUS_NOT_SUPPORTED;
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    g->a = simlt_view(a, NULL, (cublasOperation_t)desc->transa);
    g->b = simlt_view(b, NULL, (cublasOperation_t)desc->transb);
    g->c = simlt_view(c, NULL, CUBLAS_OP_N);
    g->d = simlt_view(d, NULL, CUBLAS_OP_N);
    g->scale = (cudaDataType)desc->scale;
    bool tf32 = desc->compute == CUBLAS_COMPUTE_32F_FAST_TF32;
    g->a.tf32 = tf32 && g->a.type == CUDA_R_32F;
    g->b.tf32 = tf32 && g->b.type == CUDA_R_32F;
    return CUBLAS_STATUS_SUCCESS;
}
