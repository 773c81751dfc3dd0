/* The headers of the four CUDA libraries transfold hooks (driver, runtime,
 * cuBLAS, cuBLASLt) as the hooks see them, and the one c10 type its
 * PyTorch hook needs (hooks_c10.def); cuda_*.c are the driver API's hooks.
 *
 * Every function the headers declare gets default visibility, so that the
 * hooks we define with those names are exported while the rest of the
 * preload stays hidden (the build uses -fvisibility=hidden). */
#ifndef TF_CUDA_LIBS_H
#define TF_CUDA_LIBS_H
#include <stdint.h>

#pragma GCC visibility push(default)
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_api.h>
#include <cublasLt.h>
#pragma GCC visibility pop

/* cuda.h points the old resolver's name at _v2; both are exported and
 * hooked under their own names. */
#undef cuGetProcAddress

/* cublas_api.h declares the __half functions for C++ only; the hooks only
 * move the 16 bits around, so a layout-compatible stand-in is enough. */
typedef struct pl_half { uint16_t bits; } pl_half;

/* c10::Device, {DeviceType type; DeviceIndex index;} (two int8_t), passed
 * by value in a register as any 2-byte trivially-copyable struct is. */
typedef struct pl_c10_device { int8_t type, index; } pl_c10_device;
#define PL_C10_DEVICE_CUDA 1 /* c10::DeviceType::CUDA */

/* The sonames the real functions live in (fallback when RTLD_NEXT misses a
 * library that was dlopen'ed with RTLD_LOCAL). */
#define TF_LIB_CUBLAS   "libcublas.so.13"
#define TF_LIB_CUBLASLT "libcublasLt.so.13"
#define TF_LIB_CUDART   "libcudart.so.13"
#define TF_LIB_CUDA     "libcuda.so.1"
#define TF_LIB_C10      "libc10.so"

/* What a hook returns when the real function cannot be found. */
#define TF_MISSING_CUBLAS   CUBLAS_STATUS_NOT_INITIALIZED
#define TF_MISSING_CUBLASLT CUBLAS_STATUS_NOT_INITIALIZED
#define TF_MISSING_CUDART   cudaErrorSharedObjectSymbolNotFound
#define TF_MISSING_CUDA     CUDA_ERROR_NOT_FOUND

#endif
