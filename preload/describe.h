/* Turning cuBLAS and runtime arguments into the engine's plain data: views,
 * ranges, scales, streams. Shared by every hook family (cuBLASLt included). */
#ifndef TF_DESCRIBE_H
#define TF_DESCRIBE_H
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "stream_id.h"
#include "tf_cuda_libs.h"

/* The type of a cuBLAS scale factor (alpha, beta). */
typedef enum pl_stype { TF_S_F16, TF_S_F32, TF_S_F64, TF_S_C32, TF_S_C64, TF_S_I32, TF_S_NONE } pl_stype;

/* A scale factor copied out of host memory. */
typedef union pl_scalar {
    float f;
    double d;
    float c[2];
    double z[2];
    uint16_t h;
    int32_t i;
    unsigned char bytes[16];
} pl_scalar;

size_t pl_stype_size(pl_stype t);
bool pl_stype_complex(pl_stype t);
/* Reads the value behind p (host pointer mode only). */
pl_scalar pl_scalar_load(pl_stype t, const void *p);
tf_scale pl_scalar_scale(pl_stype t, const pl_scalar *s, bool host);
bool pl_scalar_is_zero(pl_stype t, const pl_scalar *s);
/* s *= mul; the engine only asks for exact factors (powers of two). */
void pl_scalar_mul(pl_stype t, pl_scalar *s, double mul);

/* Device pointer mode: alpha and beta are device memory the call reads
 * (a scale type we do not know reads at most a double complex). */
void pl_access_scalars(tf_access *a, pl_stype t, const void *alpha, const void *beta);

/* cuBLAS handle state. */
uint64_t pl_cublas_stream(cublasHandle_t h);
bool pl_cublas_host_pointers(cublasHandle_t h);

/* Data types of the Ex APIs. */
uint32_t pl_cuda_dtype_size(cudaDataType t); /* 0 when unknown */
const char *pl_cuda_dtype_name(cudaDataType t);
bool pl_cuda_dtype_complex(cudaDataType t);
/* The scale type cuBLAS uses for a compute type and output type. */
pl_stype pl_compute_stype(cublasComputeType_t c, cudaDataType ctype);
/* Whether cublasGemmEx supports the combination; when not, cuBLAS rejects
 * the call without touching memory, and its scalars' size is unknown. */
bool pl_gemm_ex_types_valid(cublasComputeType_t c, cudaDataType at, cudaDataType bt, cudaDataType ct);

tf_op pl_op_from_cublas(cublasOperation_t op);
cublasOperation_t pl_op_to_cublas(tf_op op);
bool pl_cublas_op_valid(cublasOperation_t op);

/* A column-major matrix, and a strided vector as one. */
tf_view pl_matrix(const void *p, uint32_t elem, int64_t rows, int64_t cols, int64_t ld,
                  int64_t batch, int64_t stride);
tf_view pl_vector(const void *p, uint32_t elem, int64_t len, int64_t inc);
tf_range pl_bytes(const void *p, uint64_t n);
/* width x height bytes, rows `pitch` apart: a column-major byte matrix. */
tf_view pl_pitched(uint64_t addr, size_t pitch, size_t width, size_t height);

#endif
