/* Operation flags and the strided view of a column-major operand. */
#include "args.h"

bool simcublas_op_ok(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

const char *simcublas_op_name(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? "N" : op == CUBLAS_OP_T ? "T" : "C";
}

int64_t simcublas_max1(int64_t x)
{
    return x > 1 ? x : 1;
}

sim_mat simcublas_view(const void *base, cudaDataType type, cublasOperation_t op, int64_t ld, int64_t bs)
{
    bool trans = op != CUBLAS_OP_N;
    bool cplx = type == CUDA_C_32F || type == CUDA_C_64F || type == CUDA_C_8I;
    return (sim_mat){.base = base, .type = type, .rs = trans ? ld : 1, .cs = trans ? 1 : ld, .bs = bs,
                     .conj = op == CUBLAS_OP_C && cplx};
}
