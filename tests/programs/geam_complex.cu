// Complex transposes (cublasCgeam / cublasZgeam with op T or C) consumed by
// cublasCgemm / cublasZgemm with op N, T or C.
// Usage: geam_complex TYPE GEAM_OP GEMM_OP    e.g. geam_complex c C N
//   TYPE c (c64) or z (c128); GEAM_OP T or C; GEMM_OP N, T or C.
// W is 12 x 8 (ld 12); Wt = op(W) is 8 x 12 (ld 8). The GEMM computes
// Y = op(Wt) * Z with Wt as operand A.
#include "common.h"

enum { R = 12, C = 8, NZ = 5 };

static cublasOperation_t op_of(char c)
{
    return c == 'T' ? CUBLAS_OP_T : c == 'C' ? CUBLAS_OP_C : CUBLAS_OP_N;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (argv[1][0] != 'c' && argv[1][0] != 'z')) return usage(argv[0]);
    int dbl = argv[1][0] == 'z';
    cublasOperation_t geam_op = op_of(argv[2][0]), gemm_op = op_of(argv[3][0]);
    enum tf_type t = dbl ? TF_C128 : TF_C64;
    size_t elem = tf_elem(t);
    // op(Wt) is m x k: Wt itself for N (8 x 12), its transpose otherwise (12 x 8).
    int m = gemm_op == CUBLAS_OP_N ? C : R, k = gemm_op == CUBLAS_OP_N ? R : C;

    cublasHandle_t h;
    CKB(cublasCreate(&h));
    void *w = dev_fill(t, R * C, 1), *z = dev_fill(t, k * NZ, 2);
    void *wt = dev_zero(C * R * elem), *y = dev_zero(m * NZ * elem);
    if (dbl) {
        // alpha = 1 - 0i: a unit scale with a signed zero imaginary part.
        const cuDoubleComplex one = make_cuDoubleComplex(1.0, -0.0), zero = make_cuDoubleComplex(0.0, 0.0);
        const cuDoubleComplex *wp = (const cuDoubleComplex *)w;
        CKB(cublasZgeam(h, geam_op, geam_op, C, R, &one, wp, R, &zero, wp, R, (cuDoubleComplex *)wt, C));
        CKB(cublasZgemm(h, gemm_op, CUBLAS_OP_N, m, NZ, k, &one, (const cuDoubleComplex *)wt, C,
                        (const cuDoubleComplex *)z, k, &zero, (cuDoubleComplex *)y, m));
    } else {
        const cuComplex one = make_cuComplex(1.0f, 0.0f), zero = make_cuComplex(0.0f, 0.0f);
        const cuComplex *wp = (const cuComplex *)w;
        CKB(cublasCgeam(h, geam_op, geam_op, C, R, &one, wp, R, &zero, wp, R, (cuComplex *)wt, C));
        CKB(cublasCgemm(h, gemm_op, CUBLAS_OP_N, m, NZ, k, &one, (const cuComplex *)wt, C, (const cuComplex *)z, k,
                        &zero, (cuComplex *)y, m));
    }
    CK(cudaFree(wt));
    show_dev("Y", y, (size_t)m * NZ, elem);
    CK(cudaFree(w));
    CK(cudaFree(z));
    CK(cudaFree(y));
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
