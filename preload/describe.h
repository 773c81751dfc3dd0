/* Turning cuBLAS and runtime arguments into the engine's plain data: views,
 * ranges, scales, streams. Shared by every hook family (cuBLASLt included). */
#ifndef TF_DESCRIBE_H
#define TF_DESCRIBE_H
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "tf_cuda.h"

#define TF_ADDR(p) ((uint64_t)(uintptr_t)(p))

/* Stream identity. The engine folds only when a record and a GEMM name the
 * same stream, so every hook must name a stream the same way. Streams are
 * their handles, except the default streams, whose handles mean a different
 * stream on every device (and, per-thread, on every thread); their ids say
 * which (stream handles are aligned pointers, so no handle has these forms):
 *  - the legacy default stream, whether a call said 0 (non-ptsz entry point,
 *    cuBLAS handle) or cudaStreamLegacy: 0 on device 0, (device << 3) | 1
 *    on another;
 *  - a per-thread default stream (cudaStreamPerThread, or 0 at a _ptsz/_ptds
 *    entry point): (thread << 16) | (device << 3) | 2, thread > 0 unique to
 *    each thread the process ever had. */
uint64_t tf_stream_id(uint64_t raw, bool per_thread_entry);
/* This thread's per-thread default stream on the current device. */
uint64_t tf_stream_mine(void);
/* The handle that reaches stream `id` from this thread, with its device
 * current, through a non-ptsz entry point: 0 for a legacy stream,
 * cudaStreamPerThread for this thread's own per-thread stream. Another
 * thread's per-thread stream cannot be named from here; the legacy stream
 * stands in for it, since legacy work is ordered after all earlier and
 * before all later work of every blocking stream, per-thread ones
 * included. */
uint64_t tf_stream_arg(uint64_t id);

/* Whether the driver accepts stream `id` from this thread (not destroyed):
 * a deferral reports success at once, so it must not hide that error. */
bool tf_stream_usable(uint64_t id);

#define TF_STREAM(s) tf_stream_id(TF_ADDR(s), false)
#define TF_PTSZ(s) tf_stream_id(TF_ADDR(s), true)
#define TF_STREAM_PER_THREAD tf_stream_mine()

/* The type of a cuBLAS scale factor (alpha, beta). */
typedef enum tf_stype { TF_S_F16, TF_S_F32, TF_S_F64, TF_S_C32, TF_S_C64, TF_S_I32, TF_S_NONE } tf_stype;

/* A scale factor copied out of host memory. */
typedef union tf_scalar {
    float f;
    double d;
    float c[2];
    double z[2];
    uint16_t h;
    int32_t i;
    unsigned char bytes[16];
} tf_scalar;

size_t tf_stype_size(tf_stype t);
bool tf_stype_complex(tf_stype t);
/* Reads the value behind p (host pointer mode only). */
tf_scalar tf_scalar_load(tf_stype t, const void *p);
tf_scale tf_scalar_scale(tf_stype t, const tf_scalar *s, bool host);
bool tf_scalar_is_zero(tf_stype t, const tf_scalar *s);
/* s *= mul; the engine only asks for exact factors (powers of two). */
void tf_scalar_mul(tf_stype t, tf_scalar *s, double mul);

/* Device pointer mode: alpha and beta are device memory the call reads
 * (a scale type we do not know reads at most a double complex). */
void tf_access_scalars(tf_access *a, tf_stype t, const void *alpha, const void *beta);

/* cuBLAS handle state. */
uint64_t tf_cublas_stream(cublasHandle_t h);
bool tf_cublas_host_pointers(cublasHandle_t h);
int tf_current_device(void);

/* Data types of the Ex APIs. */
uint32_t tf_cuda_dtype_size(cudaDataType t); /* 0 when unknown */
const char *tf_cuda_dtype_name(cudaDataType t);
bool tf_cuda_dtype_complex(cudaDataType t);
/* The scale type cuBLAS uses for a compute type and output type. */
tf_stype tf_compute_stype(cublasComputeType_t c, cudaDataType ctype);
/* Whether cublasGemmEx supports the combination; when not, cuBLAS rejects
 * the call without touching memory, and its scalars' size is unknown. */
bool tf_gemm_ex_types_valid(cublasComputeType_t c, cudaDataType at, cudaDataType bt, cudaDataType ct);

tf_op tf_op_from_cublas(cublasOperation_t op);
cublasOperation_t tf_op_to_cublas(tf_op op);
bool tf_cublas_op_valid(cublasOperation_t op);

/* A column-major matrix, and a strided vector as one. */
tf_view tf_matrix(const void *p, uint32_t elem, int64_t rows, int64_t cols, int64_t ld,
                  int64_t batch, int64_t stride);
tf_view tf_vector(const void *p, uint32_t elem, int64_t len, int64_t inc);
tf_range tf_bytes(const void *p, uint64_t n);
/* width x height bytes, rows `pitch` apart: a column-major byte matrix. */
tf_view tf_pitched(uint64_t addr, size_t pitch, size_t width, size_t height);

#endif
