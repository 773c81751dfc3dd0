/* The stand-in's cuBLAS handle. Destroyed handles are parked on a free list
 * instead of freed, so a stale handle can be recognized (its magic is
 * cleared) without reading freed memory; cublasCreate reuses them. */
#ifndef SIMCUBLAS_HANDLE_H
#define SIMCUBLAS_HANDLE_H
#include <stdbool.h>

#include <cublasLt.h>
#include <cublas_api.h>

#define SIMCUBLAS_HIDDEN __attribute__((visibility("hidden")))

struct cublasContext {
    uint32_t magic; /* first: cuBLASLt reads it to accept the handle (handle_magic.h) */
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
    cublasAtomicsMode_t atomics;
    cublasEmulationStrategy_t emulation;
    /* The other emulation controls, stored for the program (settings.c). */
    cudaEmulationSpecialValuesSupport emu_special;
    cudaEmulationMantissaControl emu_mantissa;
    int emu_max_bits, emu_bit_offset, *emu_bit_count;
    int sm_count;
    void *workspace;
    size_t workspace_size;
    cublasLtHandle_t lt; /* cached for the GEMMs that run through cublasLtMatmul */
    struct cublasContext *next_free;
};

/* True for a handle created and not yet destroyed. */
SIMCUBLAS_HIDDEN bool simcublas_handle_ok(cublasHandle_t h);

#endif
