/* Private contract between the stand-in's libcublas and libcublasLt.
 *
 * The real libcublasLt exports private entry points for libcublas
 * (cublasLt_for_cublas_*); the stand-in does the same with simcublasLt_*, so
 * the one reference GEMM and the one element-wise add live in libcublasLt and
 * libcublas carries no arithmetic of its own. These symbols are not part of
 * any public API; programs never see them.
 *
 * Matrices are described as strided views after the op is applied: element
 * (i, j) of batch b lives at base + b*bs + i*rs + j*cs (in elements). A
 * transposed operand is the same storage with rs and cs swapped, so the
 * reference loop never looks at op flags and its summation order cannot
 * depend on them.
 */
#ifndef SIMLT_H
#define SIMLT_H
#include <stdbool.h>
#include <stdint.h>
#include <cublas_api.h>

typedef struct sim_mat {
    const void *base;   /* element (0,0) of batch 0; NULL = operand absent */
    cudaDataType type;
    int64_t rs, cs, bs; /* row, column and batch strides in elements */
    bool conj;          /* conjugate complex elements when loading */
    bool tf32;          /* f32 elements rounded to TF32 when loading (TF32 math) */
} sim_mat;

/* f rounded to TF32 (10 mantissa bits, to nearest even), as a tensor core
 * reads an f32 operand under CUBLAS_TF32_TENSOR_OP_MATH or
 * CUBLAS_COMPUTE_32F_FAST_TF32; infinities and NaNs as they are. */
static inline float sim_tf32(float f)
{
    union { float f; uint32_t u; } x = { f };
    if ((x.u & 0x7f800000u) != 0x7f800000u) {
        x.u += 0xfffu + ((x.u >> 13) & 1u);
        x.u &= 0xffffe000u;
    }
    return x.f;
}

/* Block scale factors (cuBLASLt's VEC32_UE8M0 and VEC16_UE4M3 modes): one
 * 8-bit factor per `vec` consecutive elements along k of each row of op(A)
 * or column of op(B) ("outer" index), or along m of each column of D, in
 * the tiled layout of the cuBLAS documentation (scale.c). vec 128: Hopper's
 * fp32 factors (VEC128_32F, or BLK128x128_32F when blk2d), plain arrays. */
typedef struct sim_bscale {
    const uint8_t *p;   /* NULL: no block scales */
    int vec;            /* 32: UE8M0 factors; 16: UE4M3; 128: fp32 */
    int64_t blocks;     /* blocks along the inner dimension: ceil(inner / vec) */
    int64_t outer;      /* outer indices (m or n): VEC128_32F's leading dimension */
    bool blk2d;         /* one factor per 128 outer indices too (BLK128x128_32F) */
} sim_bscale;

typedef enum sim_act { SIM_ACT_NONE, SIM_ACT_RELU, SIM_ACT_GELU } sim_act;

/* D = act(alpha * op(A) op(B) + beta * C + bias), per batch. */
typedef struct sim_gemm {
    int64_t m, n, k, batch;
    sim_mat a, b, c, d;     /* a: m x k, b: k x n, c and d: m x n */
    cudaDataType scale;     /* type of alpha and beta; picks the accumulator */
    const void *alpha, *beta;
    bool alpha_vec;         /* alpha[i] per row of D (Lt device-vector modes) */
    bool beta_vec;          /* beta[i] per row of D */
    bool beta_zero;         /* beta is known to be 0 (Lt ..._BETA_ZERO mode) */
    int64_t alpha_vec_bs;   /* batch stride of the alpha vector */
    const void *bias;       /* m elements per batch, added before act */
    cudaDataType bias_type;
    int64_t bias_bs;
    sim_act act;
    void *aux;              /* pre-activation copy of D (GELU_AUX), type of D */
    int64_t aux_ld, aux_bs;
    /* FP8 scaling (cuBLASLt): D = d_scale * (alpha a_scale b_scale op(A)op(B)
     * + beta c_scale C); *amax_d = max |D| before d_scale. NULL means 1 / none. */
    const float *a_scale, *b_scale, *c_scale, *d_scale;
    float *amax_d;
    /* Finer scales (cuBLASLt scale modes): block factors applied to each
     * element of op(A) and op(B) as it is loaded; per-row and per-column
     * fp32 factors (OUTER_VEC_32F) of the product, a_outer[i] * b_outer[j];
     * d_out: D quantized per 32-element block of each column, the block's
     * UE8M0 factor written out (D_OUT_SCALE with VEC32_UE8M0). */
    sim_bscale a_block, b_block, d_out;
    const float *a_outer, *b_outer;
    /* A classic GEMM's workspace set with cublasSetWorkspace (NULL: none):
     * m + n and k are written to its first 8 bytes, scratch as a split-k
     * GEMM's, so a GEMM run with another workspace than it was called
     * with shows. */
    uint32_t *scratch;
} sim_gemm;

/* C = alpha * op(A) + beta * op(B), element-wise, per batch (geam and
 * cublasLtMatrixTransform). A is not read when alpha == 0 or A is absent,
 * B likewise with beta. C may alias A or B element for element. */
typedef struct sim_add {
    int64_t m, n, batch;
    sim_mat a, b, c;
    cudaDataType scale;
    const void *alpha, *beta;
} sim_add;

/* Runs the reference GEMM (skipped under SIMCUDA_NOOP). Returns
 * CUBLAS_STATUS_ALLOC_FAILED if scratch memory is exhausted. */
cublasStatus_t simcublasLt_gemm(const sim_gemm *g);
/* Names the trace line of this thread's next cublasLtMatmul: a classic call
 * that runs through cuBLASLt is traced once, under its own name. */
void simcublasLt_trace_as(const char *op);
cublasStatus_t simcublasLt_add(const sim_add *op);

struct simlt_layout;

/* Device work of cuBLAS and cuBLASLt, for simcublasLt_enqueue: one GEMM
 * (with `arrays`, run once per entry of device arrays of A, B, C and D
 * pointers, narrays entries, D being C's array when NULL; with `planar`,
 * on interleaved copies of the operands whose layout is planar complex,
 * the others NULL; `tiled` likewise), one add or one host computation
 * (`host`, whose trace line the caller writes), and its trace line: op and the line's other
 * members (JSON, without the leading comma), written when the work runs. */
/* Work cuBLAS computes on the host with the reference CBLAS (its Level-1,
 * -2 and -3 calls beyond the GEMM family): fn runs on a copy of the `size`
 * bytes at args (scalars the call reads at call time already inside),
 * touching the `nspans` byte ranges at spans (struct simcuda_span,
 * simcuda_task.h) for the race detector. Its trace line is the call's. */
typedef struct simlt_host_work {
    void (*fn)(void *args);
    const void *args;
    size_t size;
    const struct simcuda_span *spans;
    size_t nspans;
} simlt_host_work;

typedef struct simlt_work {
    const char *op;
    const char *trace;
    const sim_gemm *gemm;
    const sim_add *add;
    const simlt_host_work *host;
    const void *const *arrays[4];
    int64_t narrays;
    const struct simlt_layout *planar[4];
    /* Operands in an IMMA order (A, B, C, D of a GEMM; A, B, C of an add),
     * the others NULL: run on dense copies (tiled.c). */
    const struct simlt_layout *tiled[4];
} simlt_work;

/* The one place cuBLAS and cuBLASLt hand device work to the driver: queued
 * on `stream` (see enqueue.c), or run now on the synchronous stand-in, in
 * which case the reference's status is returned. */
cublasStatus_t simcublasLt_enqueue(cudaStream_t stream, const simlt_work *w);

/* True when (computeType, scaleType, A/B type, C/D type) is a combination the
 * cuBLAS documentation lists for cublasGemmEx / cublasLtMatmul and the
 * stand-in implements. */
bool simcublasLt_types_ok(cublasComputeType_t compute, cudaDataType scale, cudaDataType ab, cudaDataType cd);

/* The scale type cublasGemmEx implies for a compute type and C type, or -1. */
int simcublasLt_scale_for(cublasComputeType_t compute, cudaDataType c);

/* Size in bytes of an element of a supported type; 0 otherwise. */
size_t simcublasLt_type_size(cudaDataType type);

#endif
