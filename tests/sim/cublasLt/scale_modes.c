/* The scale modes cublasLtMatmul runs (CUBLASLT_MATMUL_DESC_*_SCALE_MODE)
 * and the reference GEMM's fields they fill:
 *   - FP8 A and B: each SCALAR_32F or OUTER_VEC_32F (Hopper's tensor-wide
 *     and per-row/per-column scaling), or both VEC32_UE8M0 (MXFP8);
 *   - FP4 A and B: both VEC16_UE4M3 (NVFP4);
 *   - D_OUT_SCALE with VEC32_UE8M0 (an FP8 D) or VEC16_UE4M3 (an FP4 D): D
 *     quantized per 32- or 16-element block along m, each block's factor
 *     written (see gemm_kernel.h's quant_); an FP4 D only so.
 * The block modes and FP4 are Blackwell's (compute capability 10.0 and
 * up, SIMCUDA_CC): on the default H100/H200 they are NOT_SUPPORTED, as
 * there. VEC128_32F and BLK128x128_32F (fp32 factors per 1 x 128 vector
 * along k, per 128 x 128 block; layouts in scale.c) are Hopper's (9.x):
 * the cuBLAS documentation's table takes A and B each one of them except
 * both BLK128x128, FP8 A and B, M and N multiples of 4, and a D of 16F,
 * 16BF or 32F; elsewhere NOT_SUPPORTED. Assumed, as the documentation does
 * not say: Blackwell refuses them (Transformer Engine turns such scales into
 * MXFP8 there) and a k that is not a multiple of 128 ends in a short block
 * (its L = ceil(k / 128)). C, D and the epilogue's aux matrix: SCALAR_32F
 * only. Everything else (finer scales on batched problems) is
 * NOT_SUPPORTED: never a scale array read as one number. */
#include "scale_modes.h"

#include "arch.h"

static bool narrow(uint32_t t)
{
    return sim_elem_fp8((cudaDataType)t) || t == CUDA_R_4F_E2M1;
}

static bool scalar_or_outer(int32_t mode)
{
    return mode == CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F || mode == CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
}

static bool fp32_block(int32_t mode)
{
    return mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F || mode == CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
}

/* Hopper's fp32 block scales: both A and B so scaled, not both 2D. */
static cublasStatus_t check_fp32_blocks(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                                        const simlt_layout *d)
{
    int32_t am = desc->a_scale_mode, bm = desc->b_scale_mode, cc = sim_compute_capability();
    bool modes = fp32_block(am) && fp32_block(bm) && !(am == bm && am == CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F);
    bool types = sim_elem_fp8((cudaDataType)a->type) && sim_elem_fp8((cudaDataType)b->type) &&
                 (d->type == CUDA_R_16F || d->type == CUDA_R_16BF || d->type == CUDA_R_32F);
    bool ok = modes && types && d->rows % 4 == 0 && d->cols % 4 == 0 && cc >= 90 && cc < 100;
    return ok && desc->d_out_scale_mode == CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F && !desc->d_out_scale
               ? CUBLAS_STATUS_SUCCESS
               : CUBLAS_STATUS_NOT_SUPPORTED;
}

/* A and B's modes for their data types; k must fill whole blocks. */
static cublasStatus_t check_ab(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                               int64_t k)
{
    int32_t am = desc->a_scale_mode, bm = desc->b_scale_mode;
    bool block = am == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 || am == CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3 ||
                 bm == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 || bm == CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3;
    if (block && sim_compute_capability() < 100)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (a->type == CUDA_R_4F_E2M1 || b->type == CUDA_R_4F_E2M1) {
        bool ok = am == CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3 && bm == am;
        return ok && k % 16 == 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
    }
    if (am == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 || bm == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0)
        return am == bm && k % 32 == 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
    return scalar_or_outer(am) && scalar_or_outer(bm) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

static cublasStatus_t check_d_out(const simlt_matmul_desc *desc, const simlt_layout *d)
{
    int32_t mode = desc->d_out_scale_mode;
    bool fp4 = d->type == CUDA_R_4F_E2M1;
    if (mode == CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F)
        return desc->d_out_scale || fp4 ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_SUCCESS;
    bool ok = (mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 && sim_elem_fp8((cudaDataType)d->type)) ||
              (mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3 && fp4);
    if (!ok || sim_compute_capability() < 100)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return desc->d_out_scale ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

static bool all_scalar(const simlt_matmul_desc *desc)
{
    const int32_t modes[] = {desc->a_scale_mode, desc->b_scale_mode, desc->c_scale_mode, desc->d_scale_mode,
                             desc->aux_scale_mode, desc->d_out_scale_mode};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i] != CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F)
            return false;
    return desc->d_out_scale == NULL;
}

cublasStatus_t simlt_scales_check(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                                  const simlt_layout *d, int64_t k, int64_t batch)
{
    if (all_scalar(desc))
        return CUBLAS_STATUS_SUCCESS;
    if (!narrow(a->type) || !narrow(b->type) || batch != 1)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    const int32_t scalar = CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
    if (desc->c_scale_mode != scalar || desc->d_scale_mode != scalar || desc->aux_scale_mode != scalar)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (fp32_block(desc->a_scale_mode) || fp32_block(desc->b_scale_mode))
        return check_fp32_blocks(desc, a, b, d);
    cublasStatus_t st = check_ab(desc, a, b, k);
    return st == CUBLAS_STATUS_SUCCESS ? check_d_out(desc, d) : st;
}

/* One operand's scale pointer as the mode reads it; `outer` is m or n. */
static void set_one(int32_t mode, const void *p, int64_t inner, int64_t outer, const float **scalar,
                    const float **vec, sim_bscale *blk)
{
    if (mode == CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F)
        *vec = p;
    else if (mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 || mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3) {
        int v = mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 ? 32 : 16;
        *blk = (sim_bscale){p, v, (inner + v - 1) / v, outer, false};
    } else if (fp32_block(mode))
        *blk = (sim_bscale){p, 128, (inner + 127) / 128, outer, mode == CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F};
    else
        *scalar = p;
}

void simlt_scales_set(const simlt_matmul_desc *desc, sim_gemm *g)
{
    set_one(desc->a_scale_mode, desc->a_scale, g->k, g->m, &g->a_scale, &g->a_outer, &g->a_block);
    set_one(desc->b_scale_mode, desc->b_scale, g->k, g->n, &g->b_scale, &g->b_outer, &g->b_block);
    g->c_scale = desc->c_scale;
    g->d_scale = desc->d_scale;
    g->amax_d = desc->amax_d;
    if (desc->d_out_scale_mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0)
        g->d_out = (sim_bscale){desc->d_out_scale, 32, (g->m + 31) / 32, g->n, false};
    if (desc->d_out_scale_mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3)
        g->d_out = (sim_bscale){desc->d_out_scale, 16, (g->m + 15) / 16, g->n, false};
}
