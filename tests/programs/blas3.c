/* cuBLAS Level-3 beyond GEMM the way NVIDIA's Level-3 samples use it:
 * matrices copied to the device, one call, the result copied back. symm,
 * syrk, syr2k, trmm, trsm and dgmm for S, D, C and Z, hemm, herk and her2k
 * for C and Z, with leading dimensions larger than the rows, one
 * flag combination each (sides, fills, transposes and diagonals varied
 * across routines), a matrix left as it was by a call whose argument
 * cuBLAS refuses, and the complex single Ex forms (CsyrkEx, CherkEx,
 * CgemmEx).
 *
 * Usage: blas3
 * Prints "<routine> <type> <rows> <cols> <numbers...>": the whole output
 * buffer (ld x cols, column-major; a complex number as its two parts), so
 * writes outside the result show too. tests/e2e/blas3_check.py recomputes
 * every line with numpy from the same inputs. */
#include <stdbool.h>

#include "common.h"

enum { LD = 5, M = 4, N = 3, K = 3 };

static cublasHandle_t handle;

/* Element k of input matrix `seed` as NP parts, tf_val: exact in every type;
 * square matrices used as triangles get 3 added on their diagonal. */
static double part(unsigned seed, int k) { return tf_val((size_t)k, seed); }

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* One type: T the element, R its real type, NP its parts (1 or 2). */
#define BLAS3_TYPE(P, T, R, NP)                                                                      \
    static T *mat_##P(unsigned seed, int cols, int ld, bool tri)                                     \
    {                                                                                                \
        R h[LD * LD * 2];                                                                            \
        for (int k = 0; k < ld * cols * NP; k++) h[k] = (R)part(seed, k);                            \
        for (int i = 0; tri && i < cols; i++) h[(i + i * ld) * NP] += 3;                             \
        return (T *)upload(h, sizeof(R) * (size_t)(ld * cols * NP));                                 \
    }                                                                                                \
    static void show_##P(const char *what, T *d, int ld, int cols)                                   \
    {                                                                                                \
        R h[LD * LD * 2];                                                                            \
        CK(cudaMemcpy(h, d, sizeof(R) * (size_t)(ld * cols * NP), cudaMemcpyDeviceToHost));          \
        printf("%s %s %d %d", what, #P, ld, cols);                                                   \
        for (int k = 0; k < ld * cols * NP; k++) printf(" %.17g", (double)h[k]);                     \
        printf("\n");                                                                                \
        CK(cudaFree(d));                                                                             \
    }                                                                                                \
    static void common_##P(const T *alpha, const T *beta, cublasOperation_t tr)                     \
    {                                                                                                \
        T *a = mat_##P(1, M, LD, false), *b = mat_##P(2, N, LD, false), *c = mat_##P(3, N, M, false); \
        CKB(cublas##P##symm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, M, N, alpha, a, LD, b, LD, \
                            beta, c, M));                                                            \
        show_##P("symm", c, M, N);                                                                   \
        c = mat_##P(3, M, M, false);                                                                 \
        CKB(cublas##P##syrk(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, M, K, alpha, b, LD, beta, c, M)); \
        show_##P("syrk", c, M, M);                                                                   \
        c = mat_##P(3, M, M, false);                                                                 \
        CKB(cublas##P##syr2k_64(handle, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, M, K, alpha, a, LD, a, LD, \
                                beta, c, M));                                                        \
        show_##P("syr2k", c, M, M);                                                                  \
        T *t = mat_##P(4, N, LD, true);                                                              \
        c = mat_##P(3, N, M, false);                                                                 \
        CKB(cublas##P##trmm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,          \
                            CUBLAS_DIAG_NON_UNIT, M, N, alpha, t, LD, b, LD, c, M));                 \
        show_##P("trmm", c, M, N);                                                                   \
        CK(cudaFree(t));                                                                             \
        t = mat_##P(4, M, LD, true);                                                                 \
        T *x = mat_##P(2, N, LD, false);                                                             \
        CKB(cublas##P##trsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, tr, CUBLAS_DIAG_UNIT, M, N, \
                            alpha, t, LD, x, LD));                                                   \
        show_##P("trsm", x, LD, N);                                                                  \
        x = mat_##P(2, N, LD, false);                                                                \
        c = mat_##P(3, N, M, false);                                                                 \
        CKB(cublas##P##dgmm(handle, CUBLAS_SIDE_RIGHT, M, N, x, LD, a, -2, c, M));                   \
        show_##P("dgmm", c, M, N);                                                                   \
        c = mat_##P(3, N, M, false);                                                                 \
        STATUS(cublas##P##symm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_FULL, M, N, alpha, a, LD, x, LD, \
                               beta, c, M));                                                         \
        show_##P("refused", c, M, N);                                                                \
        CK(cudaFree(t));                                                                             \
        CK(cudaFree(x));                                                                             \
        CK(cudaFree(a));                                                                             \
        CK(cudaFree(b));                                                                             \
    }

BLAS3_TYPE(S, float, float, 1)
BLAS3_TYPE(D, double, double, 1)
BLAS3_TYPE(C, cuComplex, float, 2)
BLAS3_TYPE(Z, cuDoubleComplex, double, 2)

/* The Hermitian routines: alpha complex (hemm, her2k) or real (herk). */
#define HERM_TYPE(P, T, R)                                                                           \
    static void herm_##P(const T *alpha, const T *beta, const R *ralpha, const R *rbeta)             \
    {                                                                                                \
        T *a = mat_##P(1, N, LD, false), *b = mat_##P(2, N, LD, false), *c = mat_##P(3, N, M, false); \
        CKB(cublas##P##hemm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, M, N, alpha, a, LD, b, LD, \
                            beta, c, M));                                                            \
        show_##P("hemm", c, M, N);                                                                   \
        T *w = mat_##P(1, M, LD, false);                                                             \
        c = mat_##P(3, M, M, false);                                                                 \
        CKB(cublas##P##herk(handle, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, M, K, ralpha, w, LD, rbeta, c, M)); \
        show_##P("herk", c, M, M);                                                                   \
        c = mat_##P(3, M, M, false);                                                                 \
        CKB(cublas##P##her2k(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, M, K, alpha, b, LD, a, LD, rbeta, \
                             c, M));                                                                 \
        show_##P("her2k", c, M, M);                                                                  \
        CK(cudaFree(w));                                                                             \
        CK(cudaFree(a));                                                                             \
        CK(cudaFree(b));                                                                             \
    }

HERM_TYPE(C, cuComplex, float)
HERM_TYPE(Z, cuDoubleComplex, double)

/* The complex single Ex forms on the inputs of syrk, herk and a GEMM; an
 * 8-bit complex input, which the stand-in does not compute. */
static void ex_C(const cuComplex *alpha, const cuComplex *beta, const float *ralpha, const float *rbeta)
{
    cuComplex *b = mat_C(2, N, LD, false), *c = mat_C(3, M, M, false);
    CKB(cublasCsyrkEx(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, M, K, alpha, b, CUDA_C_32F, LD, beta, c,
                      CUDA_C_32F, M));
    show_C("syrkex", c, M, M);
    cuComplex *w = mat_C(1, M, LD, false);
    c = mat_C(3, M, M, false);
    CKB(cublasCherkEx(handle, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, M, K, ralpha, w, CUDA_C_32F, LD, rbeta, c,
                      CUDA_C_32F, M));
    show_C("herkex", c, M, M);
    c = mat_C(3, N, M, false);
    CKB(cublasCgemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, alpha, w, CUDA_C_32F, LD, b, CUDA_C_32F, LD, beta,
                      c, CUDA_C_32F, M));
    show_C("gemmex", c, M, N);
    STATUS(cublasCgemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, alpha, w, CUDA_C_8I, LD, b, CUDA_C_8I, LD, beta,
                         w, CUDA_C_32F, M));
    CK(cudaFree(w));
    CK(cudaFree(b));
}

int main(void)
{
    CKB(cublasCreate(&handle));
    float sa = 1.5f, sb = -0.5f;
    double da = 1.5, db = -0.5;
    cuComplex ca = {0.5f, -1.0f}, cb = {1.5f, 0.25f};
    cuDoubleComplex za = {0.5, -1.0}, zb = {1.5, 0.25};
    common_S(&sa, &sb, CUBLAS_OP_N);
    common_D(&da, &db, CUBLAS_OP_T);
    common_C(&ca, &cb, CUBLAS_OP_C);
    common_Z(&za, &zb, CUBLAS_OP_N);
    herm_C(&ca, &cb, &sa, &sb);
    herm_Z(&za, &zb, &da, &db);
    ex_C(&ca, &cb, &sa, &sb);
    CKB(cublasDestroy(handle));
    return 0;
}
