/* cuBLASLt's finer scale modes the way NVIDIA's LtMxfp8Matmul and
 * LtNvfp4Matmul samples use them (TN, alpha 2, beta 1, BF16 C), run on a
 * Blackwell part (the e2e case sets SIMCUDA_CC=10.0):
 *   mxfp8  E4M3 A and B with VEC32_UE8M0 block scales, E4M3 D quantized
 *          with VEC32_UE8M0 D_OUT factors, AMAX_D;
 *   nvfp4  E2M1 A and B with VEC16_UE4M3 block scales, BF16 D;
 *   nvfp4q the same with an E2M1 D, a D scale of 0.5 and VEC16_UE4M3 D_OUT
 *          factors;
 *   outer  E4M3 A and B with OUTER_VEC_32F (per-row, per-column) scales,
 *          BF16 D;
 * each through the heuristic's algorithm, as the samples run it; the ids
 * GetIds gives for NVFP4 (FP4 D) and FP8 (FP8 D) types; and refusals:
 * VEC128_32F (Hopper's, not Blackwell's), VEC32 A with a scalar-scaled B,
 * and a transform of FP4 data. Scale factors are written in the documented
 * tiled layout (128 x 4 tiles).
 * With the argument `hopper` (run at SIMCUDA_CC=9.0) it runs instead
 * Hopper's fp32 block scales on E4M3 A and B with a BF16 D, the way
 * DeepSeek-style FP8 training uses them:
 *   v128v128  A and B with VEC128_32F (per 1 x 128 vector along k);
 *   v128blk   A VEC128_32F, B BLK128x128_32F (per 128 x 128 block);
 *   blkv128   A BLK128x128_32F, B VEC128_32F;
 * and refusals: both BLK128x128_32F (the documentation's table says no),
 * VEC128 A with a scalar-scaled B, and an E4M3 D. The fp32 factors differ
 * from block to block and the arrays' padding holds NaN, so a factor read
 * at a wrong offset changes D.
 *
 * Usage: lt_blockscale [hopper]
 * Prints the id counts, each D, each D_OUT factor array and AMAX_D as hex
 * bytes, and the refusals' statuses; tests/e2e/lt_blockscale_check.py recomputes them with
 * numpy. */
#include <cublasLt.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "common.h"

enum { M = 136, N = 24, K = 256 };

/* Byte offset of factor (outer, block) in the tiled layout; `blocks` is the
 * number of blocks along the inner dimension. */
static size_t tiled(size_t outer, size_t block, size_t blocks)
{
    size_t across = (blocks + 3) / 4;
    return ((outer / 128) * across + block / 4) * 512 + (outer % 32) * 16 + (outer % 128) / 32 * 4 + block % 4;
}

static size_t tiled_bytes(size_t outer, size_t blocks)
{
    return (outer + 127) / 128 * 128 * ((blocks + 3) / 4 * 4);
}

/* tf_val as E4M3 / E2M1 (every value of {-2, ..., 2} is exact in both). */
static uint8_t e4m3(float v)
{
    static const uint8_t code[5] = {0x00, 0x30, 0x38, 0x3c, 0x40}; /* 0, 0.5, 1, 1.5, 2 */
    return (uint8_t)((v < 0 ? 0x80 : 0) | code[(int)(2 * (v < 0 ? -v : v))]);
}

static uint8_t e2m1(float v)
{
    return (uint8_t)((v < 0 ? 8 : 0) | (int)(2 * (v < 0 ? -v : v)));
}

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* A K x cols operand (column-major, ld K) of seed `seed`, FP8 or FP4. */
static void *operand(int cols, unsigned seed, bool fp4)
{
    size_t n = (size_t)K * (size_t)cols;
    uint8_t *h = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        float v = tf_val(i, seed);
        if (fp4)
            h[i / 2] |= (uint8_t)(e2m1(v) << (i % 2 * 4));
        else
            h[i] = e4m3(v);
    }
    void *d = upload(h, fp4 ? n / 2 : n);
    free(h);
    return d;
}

/* Factors for `outer` rows of K / vec blocks: UE8M0 codes 125..128
 * (0.25..2) for vec 32, UE4M3 codes of 0.5, 1, 1.5, 2 for vec 16. */
static void *factors(int outer, int vec, unsigned seed)
{
    static const uint8_t ue4m3[4] = {0x30, 0x38, 0x3c, 0x40};
    size_t blocks = K / (size_t)vec, bytes = tiled_bytes((size_t)outer, blocks);
    uint8_t *h = calloc(bytes, 1);
    for (size_t r = 0; r < (size_t)outer; r++)
        for (size_t b = 0; b < blocks; b++) {
            unsigned v = (unsigned)(r * 5 + b * 7 + r / 128 * 2 + b / 4 + seed) % 4; /* no period of a tile */
            h[tiled(r, b, blocks)] = vec == 32 ? (uint8_t)(125 + v) : ue4m3[v];
        }
    void *d = upload(h, bytes);
    free(h);
    return d;
}

static void *bf16_c(void)
{
    uint16_t h[M * N];
    for (size_t i = 0; i < M * N; i++) {
        float v = tf_val(i, 5);
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        h[i] = (uint16_t)(bits >> 16); /* exact: tf_val has few mantissa bits */
    }
    return upload(h, sizeof h);
}

static void *filled(size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemset(d, 0xee, bytes)); /* padding the library leaves alone shows as ee */
    return d;
}

static void dump(const char *label, const void *d, size_t bytes)
{
    uint8_t *h = malloc(bytes);
    CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    printf("%s", label);
    for (size_t i = 0; i < bytes; i++) printf("%s%02x", i % 64 ? "" : " ", h[i]);
    printf("\n");
    free(h);
}

typedef struct run_spec {
    const char *name;
    cudaDataType ab, d;
    int32_t a_mode, b_mode, dout_mode;
    void *sa, *sb, *dout;
    float d_scale;
} run_spec;

static void set(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr, const void *v, size_t n)
{
    CKB(cublasLtMatmulDescSetAttribute(desc, attr, v, n));
}

static cublasStatus_t matmul(cublasLtHandle_t lt, const run_spec *r, const void *a, const void *b, const void *c,
                             void *d, float *amax)
{
    cublasLtMatmulDesc_t desc;
    CKB(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    int32_t t = CUBLAS_OP_T;
    set(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
    set(desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &r->a_mode, sizeof r->a_mode);
    set(desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &r->b_mode, sizeof r->b_mode);
    set(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &r->sa, sizeof r->sa);
    set(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &r->sb, sizeof r->sb);
    float *dscale = NULL;
    if (r->dout) {
        set(desc, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, &r->dout_mode, sizeof r->dout_mode);
        set(desc, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, &r->dout, sizeof r->dout);
        dscale = upload(&r->d_scale, sizeof r->d_scale);
        set(desc, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, &dscale, sizeof dscale);
        set(desc, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, &amax, sizeof amax);
    }
    cublasLtMatrixLayout_t la, lb, lc, ld;
    CKB(cublasLtMatrixLayoutCreate(&la, r->ab, K, M, K));
    CKB(cublasLtMatrixLayoutCreate(&lb, r->ab, K, N, K));
    CKB(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, M, N, M));
    CKB(cublasLtMatrixLayoutCreate(&ld, r->d, M, N, M));
    float alpha = 2.0f, beta = 1.0f;
    /* As the samples do: the heuristic's first algorithm, when it has one. */
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t res;
    int found = 0;
    CKB(cublasLtMatmulPreferenceCreate(&pref));
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ld, pref, 1, &res, &found);
    CKB(cublasLtMatmulPreferenceDestroy(pref));
    if (st == CUBLAS_STATUS_SUCCESS && found != 1)
        st = CUBLAS_STATUS_NOT_SUPPORTED;
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatmul(lt, desc, &alpha, a, la, b, lb, &beta, c, lc, d, ld, &res.algo, NULL, 0, 0);
    CK(cudaDeviceSynchronize());
    cublasLtMatrixLayout_t ls[] = {la, lb, lc, ld};
    for (int i = 0; i < 4; i++) CKB(cublasLtMatrixLayoutDestroy(ls[i]));
    CKB(cublasLtMatmulDescDestroy(desc));
    if (dscale) CK(cudaFree(dscale));
    return st;
}

static void run(cublasLtHandle_t lt, const run_spec *r, const void *a, const void *b, const void *c)
{
    size_t dbytes = (size_t)M * N * (r->d == CUDA_R_16BF ? 2 : 1) / (r->d == CUDA_R_4F_E2M1 ? 2 : 1);
    void *d = filled(dbytes);
    float *amax = filled(sizeof(float));
    CKB(matmul(lt, r, a, b, c, d, amax));
    printf("%s D", r->name);
    dump("", d, dbytes);
    if (r->dout) {
        int vec = r->dout_mode == CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 ? 32 : 16;
        printf("%s dout", r->name);
        dump("", r->dout, tiled_bytes(N, (M + (size_t)vec - 1) / (size_t)vec));
        printf("%s amax", r->name);
        dump("", amax, sizeof(float));
    }
    CK(cudaFree(d));
    CK(cudaFree(amax));
}

/* A transform of FP4 data, which cuBLASLt documents for no FP4 type. */
static cublasStatus_t transform_fp4(cublasLtHandle_t lt, const void *a4)
{
    cublasLtMatrixTransformDesc_t t;
    cublasLtMatrixLayout_t l;
    float one = 1.0f, zero = 0.0f;
    void *out;
    CK(cudaMalloc(&out, (size_t)K * M / 2));
    CKB(cublasLtMatrixTransformDescCreate(&t, CUDA_R_32F));
    CKB(cublasLtMatrixLayoutCreate(&l, CUDA_R_4F_E2M1, K, M, K));
    cublasStatus_t st = cublasLtMatrixTransform(lt, t, &one, a4, l, &zero, NULL, NULL, out, l, 0);
    CKB(cublasLtMatrixLayoutDestroy(l));
    CKB(cublasLtMatrixTransformDescDestroy(t));
    CK(cudaFree(out));
    return st;
}

static void *outer_vec(int n, unsigned seed)
{
    float h[M > N ? M : N];
    for (int i = 0; i < n; i++) h[i] = 0.25f * (float)(1 + (i * 5 + (int)seed) % 8); /* 0.25 .. 2 */
    return upload(h, (size_t)n * sizeof(float));
}

/* The fp32 factor of outer index o and k-block b: 0.25 .. 2, no short period. */
static float f32_factor(int o, int b, unsigned seed)
{
    return 0.25f * (float)(1 + (o * 37 + b * 11 + (o * o) % 13 + o / 128 * 3 + (int)seed) % 8);
}

/* Factors of `outer` rows of L = K / 128 blocks: VEC128_32F outer-major
 * (b * outer + o), else BLK128x128_32F K-major with columns L4 apart
 * ((o / 128) * L4 + b, one factor per 128 rows). Padding holds NaN. */
static void *f32_factors(int outer, bool blk, unsigned seed)
{
    int l = K / 128, l4 = (l + 3) / 4 * 4, tiles = (outer + 127) / 128;
    size_t n = blk ? (size_t)l4 * (size_t)tiles : (size_t)l * (size_t)outer;
    float *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; i++) h[i] = NAN;
    for (int o = 0; o < (blk ? tiles : outer); o++)
        for (int b = 0; b < l; b++) h[blk ? o * l4 + b : b * outer + o] = f32_factor(o, b, seed);
    void *d = upload(h, n * sizeof *h);
    free(h);
    return d;
}

/* Hopper's VEC128_32F / BLK128x128_32F runs and refusals (SIMCUDA_CC 9.0). */
static void hopper(cublasLtHandle_t lt)
{
    const int32_t v128 = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F, blk = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    const int32_t scalar = CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
    void *a8 = operand(M, 1, false), *b8 = operand(N, 2, false), *c = bf16_c();
    void *va = f32_factors(M, false, 1), *vb = f32_factors(N, false, 2);
    void *ba = f32_factors(M, true, 3), *bb = f32_factors(N, true, 4);
    run_spec runs[] = {
        {"v128v128", CUDA_R_8F_E4M3, CUDA_R_16BF, v128, v128, scalar, va, vb, NULL, 1.0f},
        {"v128blk", CUDA_R_8F_E4M3, CUDA_R_16BF, v128, blk, scalar, va, bb, NULL, 1.0f},
        {"blkv128", CUDA_R_8F_E4M3, CUDA_R_16BF, blk, v128, scalar, ba, vb, NULL, 1.0f},
    };
    printf("mode hopper\n");
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) run(lt, &runs[i], a8, b8, c);
    void *d = filled((size_t)M * N * 2);
    run_spec both = {"blkblk", CUDA_R_8F_E4M3, CUDA_R_16BF, blk, blk, scalar, ba, bb, NULL, 1.0f};
    run_spec half = {"v128scalar", CUDA_R_8F_E4M3, CUDA_R_16BF, v128, scalar, scalar, va, NULL, NULL, 1.0f};
    run_spec fp8d = {"v128fp8d", CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, v128, v128, scalar, va, vb, NULL, 1.0f};
    printf("refused blkblk %d\n", (int)matmul(lt, &both, a8, b8, c, d, NULL));
    printf("refused v128scalar %d\n", (int)matmul(lt, &half, a8, b8, c, d, NULL));
    printf("refused v128fp8d %d\n", (int)matmul(lt, &fp8d, a8, b8, c, d, NULL));
    void *all[] = {a8, b8, c, va, vb, ba, bb, d};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
}

int main(int argc, char **argv)
{
    cublasLtHandle_t lt;
    CKB(cublasLtCreate(&lt));
    if (argc > 1 && strcmp(argv[1], "hopper") == 0) {
        hopper(lt);
        CKB(cublasLtDestroy(lt));
        return 0;
    }
    const int32_t vec32 = CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0, vec16 = CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3;
    const int32_t outer = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F, scalar = CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
    void *a8 = operand(M, 1, false), *b8 = operand(N, 2, false), *a4 = operand(M, 3, true);
    void *b4 = operand(N, 4, true), *c = bf16_c();
    void *sa32 = factors(M, 32, 1), *sb32 = factors(N, 32, 2), *sa16 = factors(M, 16, 3), *sb16 = factors(N, 16, 4);
    void *oa = outer_vec(M, 1), *ob = outer_vec(N, 2);
    void *dout32 = filled(tiled_bytes(N, (M + 31) / 32)), *dout16 = filled(tiled_bytes(N, (M + 15) / 16));
    run_spec mx = {"mxfp8", CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, vec32, vec32, vec32, sa32, sb32, dout32, 1.0f};
    run_spec nv = {"nvfp4", CUDA_R_4F_E2M1, CUDA_R_16BF, vec16, vec16, scalar, sa16, sb16, NULL, 1.0f};
    run_spec nvq = {"nvfp4q", CUDA_R_4F_E2M1, CUDA_R_4F_E2M1, vec16, vec16, vec16, sa16, sb16, dout16, 0.5f};
    run_spec ov = {"outer", CUDA_R_8F_E4M3, CUDA_R_16BF, outer, outer, scalar, oa, ob, NULL, 1.0f};
    int ids[4], nfp4 = 0, nfp8 = 0;
    CKB(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_4F_E2M1, CUDA_R_4F_E2M1, CUDA_R_16BF,
                                 CUDA_R_4F_E2M1, 4, ids, &nfp4));
    CKB(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF,
                                 CUDA_R_8F_E4M3, 4, ids, &nfp8));
    printf("ids fp4 %d fp8 %d\n", nfp4, nfp8);
    run(lt, &mx, a8, b8, c);
    run(lt, &nv, a4, b4, c);
    run(lt, &nvq, a4, b4, c);
    run(lt, &ov, a8, b8, c);
    void *d = filled((size_t)M * N * 2);
    run_spec v128 = {"vec128", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F,
                     CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F, scalar, oa, ob, NULL, 1.0f};
    run_spec mixed = {"mixed", CUDA_R_8F_E4M3, CUDA_R_16BF, vec32, scalar, scalar, sa32, ob, NULL, 1.0f};
    printf("refused vec128 %d\n", (int)matmul(lt, &v128, a8, b8, c, d, NULL));
    printf("refused mixed %d\n", (int)matmul(lt, &mixed, a8, b8, c, d, NULL));
    printf("refused transform_fp4 %d\n", (int)transform_fp4(lt, a4));
    void *all[] = {a8, b8, a4, b4, c, sa32, sb32, sa16, sb16, oa, ob, dout32, dout16, d};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
    CKB(cublasLtDestroy(lt));
    return 0;
}
