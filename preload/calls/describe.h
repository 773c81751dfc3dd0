/* Turning cuBLAS and runtime arguments into the engine's plain data: views,
 * ranges, scales, streams. Shared by every hook family (cuBLASLt included). */
#ifndef TF_DESCRIBE_H
#define TF_DESCRIBE_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "engine.h"
#include "streams/stream_id.h"
#include "tables/tf_cuda_libs.h"

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

/* The small helpers below are inline: every described call asks them
 * several times, and a call into another file cost more than their work. */
static inline size_t pl_stype_size(pl_stype t)
{
    static const unsigned char sizes[] = { [TF_S_F16] = 2, [TF_S_F32] = 4, [TF_S_F64] = 8, [TF_S_C32] = 8,
                                           [TF_S_C64] = 16, [TF_S_I32] = 4, [TF_S_NONE] = 0 };
    return sizes[t];
}

static inline bool pl_stype_complex(pl_stype t) { return t == TF_S_C32 || t == TF_S_C64; }

/* Reads the value behind p (host pointer mode only). Fixed-size copies,
 * which the compiler turns into single loads. */
static inline pl_scalar pl_scalar_load(pl_stype t, const void *p)
{
    pl_scalar s = { .z = { 0, 0 } };
    if (!p)
        return s;
    switch (pl_stype_size(t)) {
    case 2: memcpy(&s, p, 2); break;
    case 4: memcpy(&s, p, 4); break;
    case 8: memcpy(&s, p, 8); break;
    case 16: memcpy(&s, p, 16); break;
    default: break;
    }
    return s;
}

tf_scale pl_scalar_scale(pl_stype t, const pl_scalar *s, bool host);

/* Whether the scale is zero (either sign); a type we do not know never is. */
static inline bool pl_scalar_is_zero(pl_stype t, const pl_scalar *s)
{
    switch (t) {
    case TF_S_F16: return (s->h & 0x7fff) == 0; /* +0 and -0 */
    case TF_S_F32: return s->f == 0;
    case TF_S_F64: return s->d == 0;
    case TF_S_C32: return s->c[0] == 0 && s->c[1] == 0;
    case TF_S_C64: return s->z[0] == 0 && s->z[1] == 0;
    case TF_S_I32: return s->i == 0;
    default: return false;
    }
}

/* s *= mul; the engine only asks for exact factors (powers of two). */
void pl_scalar_mul(pl_stype t, pl_scalar *s, double mul);

/* Device pointer mode: alpha and beta are device memory the call reads
 * (a scale type we do not know reads at most a double complex). */
void pl_access_scalars(tf_access *a, pl_stype t, const void *alpha, const void *beta);

/* cuBLAS handle state, remembered per thread until any handle changes
 * (cublas_handle_state.c). */
uint64_t pl_cublas_stream(cublasHandle_t h);
bool pl_cublas_host_pointers(cublasHandle_t h);
/* Every handle's remembered state is stale (a destroy). */
void pl_cublas_handle_changed(void);

/* Data types of the Ex APIs, indexed by value (entries left out have
 * size 0 and mean "not understood"). */
typedef struct pl_dtype_info { uint32_t size; const char *name; bool complex; } pl_dtype_info;
enum { PL_NDTYPES = CUDA_R_8F_E5M2 + 1 };
extern const pl_dtype_info pl_dtypes[PL_NDTYPES];

static inline const pl_dtype_info *pl_dtype(cudaDataType t)
{
    return (unsigned)t < PL_NDTYPES && pl_dtypes[t].size ? &pl_dtypes[t] : NULL;
}

static inline uint32_t pl_cuda_dtype_size(cudaDataType t) /* 0 when unknown */
{
    const pl_dtype_info *d = pl_dtype(t);
    return d ? d->size : 0;
}

static inline const char *pl_cuda_dtype_name(cudaDataType t)
{
    const pl_dtype_info *d = pl_dtype(t);
    return d ? d->name : "unknown";
}

static inline bool pl_cuda_dtype_complex(cudaDataType t)
{
    const pl_dtype_info *d = pl_dtype(t);
    return d && d->complex;
}

/* The scale type cuBLAS uses for a compute type and output type. */
pl_stype pl_compute_stype(cublasComputeType_t c, cudaDataType ctype);
/* Whether cublasGemmEx supports the combination; when not, cuBLAS rejects
 * the call without touching memory, and its scalars' size is unknown. */
bool pl_gemm_ex_types_valid(cublasComputeType_t c, cudaDataType at, cudaDataType bt, cudaDataType ct);

static inline tf_op pl_op_from_cublas(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? TF_OP_N : op == CUBLAS_OP_T ? TF_OP_T : TF_OP_C;
}

static inline cublasOperation_t pl_op_to_cublas(tf_op op)
{
    return op == TF_OP_N ? CUBLAS_OP_N : op == TF_OP_T ? CUBLAS_OP_T : CUBLAS_OP_C;
}

static inline bool pl_cublas_op_valid(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

/* A column-major matrix, and a strided vector as one. */
static inline tf_view pl_matrix(const void *p, uint32_t elem, int64_t rows, int64_t cols, int64_t ld,
                                int64_t batch, int64_t stride)
{
    /* A zero batch stride repeats one matrix: that is a single matrix. */
    if (batch > 1 && stride == 0)
        batch = 1;
    return (tf_view){ .addr = TF_ADDR(p), .elem = elem, .rows = rows, .cols = cols, .ld = ld,
                      .batch = batch < 1 ? 1 : batch, .stride = stride };
}
tf_view pl_vector(const void *p, uint32_t elem, int64_t len, int64_t inc);
tf_range pl_bytes(const void *p, uint64_t n);
/* width x height bytes, rows `pitch` apart: a column-major byte matrix. */
tf_view pl_pitched(uint64_t addr, size_t pitch, size_t width, size_t height);

#endif
