/* Shared helpers of the end-to-end programs (C and CUDA C++).
 *
 * Every program prints its results so that byte comparison of stdout between
 * runs is meaningful: each output buffer as an FNV-1a hash of its bytes plus
 * its first and last elements in hex. Inputs are small multiples of 0.5, so
 * every GEMM here is exact in binary floating point whatever the summation
 * order (the programs give the same bytes on a GPU, folded or not).
 *
 * CK/CKB/CKD check a CUDA runtime / cuBLAS(Lt) / driver call: on failure they
 * print the call and its status and exit 2. STATUS prints a status instead
 * (programs that check error statuses pass through unchanged).
 */
#ifndef TF_PROGRAMS_COMMON_H
#define TF_PROGRAMS_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>

static inline void tf_fail(const char *what, int line, int status)
{
    printf("FAIL line %d: %s -> %d\n", line, what, status);
    fflush(stdout);
    exit(2);
}

#define CK(call)                                                         \
    do {                                                                 \
        cudaError_t ck_e_ = (call);                                      \
        if (ck_e_ != cudaSuccess) tf_fail(#call, __LINE__, (int)ck_e_);  \
    } while (0)
#define CKB(call)                                                                 \
    do {                                                                          \
        cublasStatus_t ck_s_ = (call);                                            \
        if (ck_s_ != CUBLAS_STATUS_SUCCESS) tf_fail(#call, __LINE__, (int)ck_s_); \
    } while (0)
#define CKD(call)                                                    \
    do {                                                             \
        int ck_r_ = (int)(call);                                     \
        if (ck_r_ != 0) tf_fail(#call, __LINE__, ck_r_);             \
    } while (0)
#define STATUS(call) printf("%-60s -> %d\n", #call, (int)(call))

static inline uint64_t fnv1a(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Prints `n` elements of `elem` bytes at host `p`: hash, first and last. */
static inline void show_host(const char *label, const void *p, size_t n, size_t elem)
{
    const unsigned char *b = (const unsigned char *)p;
    printf("%s: n=%zu fnv=%016llx", label, n, (unsigned long long)fnv1a(p, n * elem));
    size_t idx[2] = {0, n ? n - 1 : 0};
    for (int k = 0; k < 2 && n; k++) {
        printf(" [%zu]=", idx[k]);
        for (size_t j = elem; j-- > 0;) printf("%02x", b[idx[k] * elem + j]); /* little-endian word */
    }
    printf("\n");
}

/* Downloads `n` elements of device memory and shows them. */
static inline void show_dev(const char *label, const void *d, size_t n, size_t elem)
{
    void *h = malloc(n * elem);
    CK(cudaMemcpy(h, d, n * elem, cudaMemcpyDeviceToHost));
    show_host(label, h, n, elem);
    free(h);
}

/* Deterministic value in {-2, -1.5, ..., 2}: exact in every type used here. */
static inline float tf_val(size_t i, unsigned seed)
{
    return (float)((int)((i * 2654435761u + seed * 97u) % 9u) - 4) * 0.5f;
}

/* bf16 / fp16 bit patterns of tf_val's values (all exact in both types). */
static inline uint16_t tf_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}
static inline uint16_t tf_half(float f)
{
    if (f == 0.0f) return 0;
    uint16_t sign = f < 0 ? 0x8000 : 0;
    float a = f < 0 ? -f : f;
    int e = 0;
    while (a >= 2.0f) { a *= 0.5f; e++; }
    while (a < 1.0f) { a *= 2.0f; e--; }
    return (uint16_t)(sign | ((e + 15) << 10) | (uint16_t)((a - 1.0f) * 1024.0f));
}

/* Device buffers filled with tf_val, by element type. */
enum tf_type { TF_F32, TF_F64, TF_C64, TF_C128, TF_BF16, TF_F16 };
static inline size_t tf_elem(enum tf_type t)
{
    switch (t) {
    case TF_F32: return 4;
    case TF_F64: return 8;
    case TF_C64: return 8;
    case TF_C128: return 16;
    default: return 2;
    }
}
static inline void *dev_fill(enum tf_type t, size_t n, unsigned seed)
{
    size_t elem = tf_elem(t);
    unsigned char *h = (unsigned char *)malloc(n * elem);
    for (size_t i = 0; i < n; i++) {
        float re = tf_val(2 * i, seed), im = tf_val(2 * i + 1, seed);
        double dre = re, dim = im;
        uint16_t s16;
        switch (t) {
        case TF_F32: memcpy(h + i * 4, &re, 4); break;
        case TF_F64: memcpy(h + i * 8, &dre, 8); break;
        case TF_C64: memcpy(h + i * 8, &re, 4); memcpy(h + i * 8 + 4, &im, 4); break;
        case TF_C128: memcpy(h + i * 16, &dre, 8); memcpy(h + i * 16 + 8, &dim, 8); break;
        case TF_BF16: s16 = tf_bf16(re); memcpy(h + i * 2, &s16, 2); break;
        case TF_F16: s16 = tf_half(re); memcpy(h + i * 2, &s16, 2); break;
        }
    }
    void *d = NULL;
    CK(cudaMalloc(&d, n * elem));
    CK(cudaMemcpy(d, h, n * elem, cudaMemcpyHostToDevice));
    free(h);
    return d;
}
static inline void *dev_zero(size_t bytes)
{
    void *d = NULL;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemset(d, 0, bytes));
    /* cudaMemset is asynchronous: work on a non-blocking stream would race with it. */
    CK(cudaDeviceSynchronize());
    return d;
}
static inline float *dev_f32(size_t n, unsigned seed) { return (float *)dev_fill(TF_F32, n, seed); }

/* Selects a sub-case by name: `if (is(argv, "readback")) ...`. */
static inline int is(const char *arg, const char *name) { return arg && strcmp(arg, name) == 0; }
static inline int usage(const char *prog)
{
    printf("usage: %s CASE\n", prog);
    return 64;
}

#endif
