/* cuBLAS Level-2 beyond gemv the way NVIDIA's Level-2 samples use it:
 * operands copied to the device, one call, the result copied back. gbmv,
 * ger (geru, gerc), trmv, trsv, tbmv, tbsv, tpmv, tpsv for S, D, C and Z;
 * symv, sbmv, spmv, syr, spr, syr2, spr2 for S and D and their Hermitian
 * forms (hemv ... hpr2) and the complex symmetric symv, syr, syr2 for C
 * and Z; full, band and packed storage, fills,
 * transposes and diagonals varied across routines.
 *
 * Usage: blas2
 * Prints "<routine> <type> <count> <numbers...>": the whole output buffer
 * (a complex number as its two parts). tests/e2e/blas2_check.py recomputes
 * every line with numpy from the same inputs. */
#include "common.h"

enum { N = 4, LD = 5, NP_ELEMS = N * (N + 1) / 2 };

static cublasHandle_t handle;

#define FLAGS_U CUBLAS_FILL_MODE_UPPER
#define FLAGS_L CUBLAS_FILL_MODE_LOWER

/* One type: T the element, R its real type, NP its parts; a buffer of
 * `count` elements from tf_val(k, seed) (solves use unit diagonals, so any
 * values are fine). */
#define BLAS2_TYPE(P, T, R, NP)                                                                            \
    static T *buf_##P(unsigned seed, int count)                                                            \
    {                                                                                                      \
        R h[LD * LD * 2];                                                                                  \
        for (int k = 0; k < count * NP; k++) h[k] = (R)tf_val((size_t)k, seed);                            \
        T *d;                                                                                              \
        CK(cudaMalloc((void **)&d, sizeof(T) * (size_t)count));                                           \
        CK(cudaMemcpy(d, h, sizeof(T) * (size_t)count, cudaMemcpyHostToDevice));                           \
        return d;                                                                                          \
    }                                                                                                      \
    static void show_##P(const char *what, T *d, int count)                                                \
    {                                                                                                      \
        R h[LD * LD * 2];                                                                                  \
        CK(cudaMemcpy(h, d, sizeof(T) * (size_t)count, cudaMemcpyDeviceToHost));                           \
        printf("%s %s %d", what, #P, count);                                                               \
        for (int k = 0; k < count * NP; k++) printf(" %.17g", (double)h[k]);                               \
        printf("\n");                                                                                      \
        CK(cudaFree(d));                                                                                   \
    }                                                                                                      \
    static void general_##P(const T *alpha, const T *beta, cublasOperation_t tr)                          \
    {                                                                                                      \
        T *a = buf_##P(1, LD * N), *x = buf_##P(2, 2 * LD), *y = buf_##P(3, LD);                               \
        CKB(cublas##P##gbmv(handle, CUBLAS_OP_T, N, N - 1, 1, 2, alpha, a, LD, x, 1, beta, y, -1));        \
        show_##P("gbmv", y, LD);                                                                           \
        y = buf_##P(3, LD);                                                                                \
        T *g = buf_##P(1, LD * N);                                                                         \
        CKB(cublas##P##GER(handle, N, N - 1, alpha, x, 1, y, 1, g, LD));                                   \
        show_##P("ger", g, LD * N);                                                                        \
        T *v = buf_##P(3, LD);                                                                             \
        CKB(cublas##P##trmv(handle, FLAGS_L, tr, CUBLAS_DIAG_NON_UNIT, N, a, LD, v, 1));                   \
        show_##P("trmv", v, LD);                                                                           \
        v = buf_##P(3, LD);                                                                                \
        CKB(cublas##P##trsv(handle, FLAGS_U, tr, CUBLAS_DIAG_UNIT, N, a, LD, v, 1));                       \
        show_##P("trsv", v, LD);                                                                           \
        v = buf_##P(3, LD);                                                                                \
        CKB(cublas##P##tbmv(handle, FLAGS_U, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, N, 1, a, LD, v, 1));       \
        show_##P("tbmv", v, LD);                                                                           \
        v = buf_##P(3, LD);                                                                                \
        CKB(cublas##P##tbsv(handle, FLAGS_L, tr, CUBLAS_DIAG_UNIT, N, 2, a, LD, v, 1));                    \
        show_##P("tbsv", v, LD);                                                                           \
        v = buf_##P(3, LD);                                                                                \
        CKB(cublas##P##tpmv(handle, FLAGS_U, tr, CUBLAS_DIAG_NON_UNIT, N, a, v, 1));                       \
        show_##P("tpmv", v, LD);                                                                           \
        v = buf_##P(3, LD);                                                                                \
        CKB(cublas##P##tpsv(handle, FLAGS_L, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, N, a, v, 1));                  \
        show_##P("tpsv", v, LD);                                                                           \
        CK(cudaFree(a));                                                                                   \
        CK(cudaFree(x));                                                                                   \
    }

#define cublasSGER cublasSger
#define cublasDGER cublasDger
#define cublasCGER cublasCgerc
#define cublasZGER cublasZgeru
BLAS2_TYPE(S, float, float, 1)
BLAS2_TYPE(D, double, double, 1)
BLAS2_TYPE(C, cuComplex, float, 2)
BLAS2_TYPE(Z, cuDoubleComplex, double, 2)

/* Symmetric (S, D) or Hermitian (C, Z) routines: sy/he, sb/hb, sp/hp;
 * RA the type of the rank-1 alpha (real for her/hpr). */
#define SYM2_TYPE(P, T, RA, sy, sb, sp)                                                               \
    static void sym_##P(const T *alpha, const T *beta, const RA *ralpha)                              \
    {                                                                                                 \
        T *a = buf_##P(1, LD * N), *x = buf_##P(2, 2 * LD), *y = buf_##P(3, LD);                          \
        CKB(cublas##P##sy##mv(handle, FLAGS_U, N, alpha, a, LD, x, 1, beta, y, 1));                   \
        show_##P(#sy "mv", y, LD);                                                                    \
        y = buf_##P(3, LD);                                                                           \
        CKB(cublas##P##sb##mv(handle, FLAGS_L, N, 1, alpha, a, LD, x, 2, beta, y, 1));               \
        show_##P(#sb "mv", y, LD);                                                                    \
        y = buf_##P(3, LD);                                                                           \
        CKB(cublas##P##sp##mv(handle, FLAGS_U, N, alpha, a, x, 1, beta, y, -1));                      \
        show_##P(#sp "mv", y, LD);                                                                    \
        y = buf_##P(3, LD);                                                                           \
        T *m = buf_##P(1, LD * N);                                                                    \
        CKB(cublas##P##sy##r(handle, FLAGS_L, N, ralpha, x, 1, m, LD));                               \
        show_##P(#sy "r", m, LD * N);                                                                 \
        m = buf_##P(1, NP_ELEMS);                                                                     \
        CKB(cublas##P##sp##r(handle, FLAGS_U, N, ralpha, x, 1, m));                                   \
        show_##P(#sp "r", m, NP_ELEMS);                                                               \
        m = buf_##P(1, LD * N);                                                                       \
        CKB(cublas##P##sy##r2(handle, FLAGS_U, N, alpha, x, 1, y, 1, m, LD));                         \
        show_##P(#sy "r2", m, LD * N);                                                                \
        m = buf_##P(1, NP_ELEMS);                                                                     \
        CKB(cublas##P##sp##r2(handle, FLAGS_L, N, alpha, x, 1, y, 1, m));                             \
        show_##P(#sp "r2", m, NP_ELEMS);                                                              \
        CK(cudaFree(a));                                                                              \
        CK(cudaFree(x));                                                                              \
        CK(cudaFree(y));                                                                              \
    }

SYM2_TYPE(S, float, float, sy, sb, sp)
SYM2_TYPE(D, double, double, sy, sb, sp)
SYM2_TYPE(C, cuComplex, float, he, hb, hp)
SYM2_TYPE(Z, cuDoubleComplex, double, he, hb, hp)

/* The complex symmetric (not Hermitian) forms: symv (upper), syr (lower),
 * syr2 (upper). */
#define CSYM_TYPE(P, T)                                                                  \
    static void csym_##P(const T *alpha, const T *beta)                                  \
    {                                                                                    \
        T *a = buf_##P(1, LD * N), *x = buf_##P(2, 2 * LD), *y = buf_##P(3, LD);         \
        CKB(cublas##P##symv(handle, FLAGS_U, N, alpha, a, LD, x, 1, beta, y, -1));       \
        show_##P("csymv", y, LD);                                                        \
        y = buf_##P(3, LD);                                                              \
        T *m = buf_##P(1, LD * N);                                                       \
        CKB(cublas##P##syr(handle, FLAGS_L, N, alpha, x, 2, m, LD));                     \
        show_##P("csyr", m, LD * N);                                                     \
        m = buf_##P(1, LD * N);                                                          \
        CKB(cublas##P##syr2(handle, FLAGS_U, N, alpha, x, 1, y, 1, m, LD));              \
        show_##P("csyr2", m, LD * N);                                                    \
        CK(cudaFree(a));                                                                 \
        CK(cudaFree(x));                                                                 \
        CK(cudaFree(y));                                                                 \
    }
CSYM_TYPE(C, cuComplex)
CSYM_TYPE(Z, cuDoubleComplex)

int main(void)
{
    CKB(cublasCreate(&handle));
    float sa = 1.5f, sb = -0.5f;
    double da = -0.75, db = 2.0;
    cuComplex ca = {0.5f, -1.0f}, cb = {1.5f, 0.25f};
    cuDoubleComplex za = {-1.0, 0.5}, zb = {0.25, -1.5};
    general_S(&sa, &sb, CUBLAS_OP_T);
    general_D(&da, &db, CUBLAS_OP_N);
    general_C(&ca, &cb, CUBLAS_OP_C);
    general_Z(&za, &zb, CUBLAS_OP_T);
    sym_S(&sa, &sb, &sa);
    sym_D(&da, &db, &da);
    sym_C(&ca, &cb, &sa);
    sym_Z(&za, &zb, &da);
    csym_C(&ca, &cb);
    csym_Z(&za, &zb);
    CKB(cublasDestroy(handle));
    return 0;
}
