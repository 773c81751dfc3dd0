/* The per-handle settings: stream, pointer mode, math mode, atomics mode,
 * workspace, SM count target, emulation strategy. Getters and setters check
 * the handle first (NOT_INITIALIZED), then the value (INVALID_VALUE). */
#include "handle.h"

/* Every getter: handle, then a NULL destination, then the stored value. */
#define GETTER(FN, T, FIELD)                                         \
    cublasStatus_t FN(cublasHandle_t handle, T *value)               \
    {                                                                \
        if (!simcublas_handle_ok(handle))                            \
            return CUBLAS_STATUS_NOT_INITIALIZED;                    \
        if (!value)                                                  \
            return CUBLAS_STATUS_INVALID_VALUE;                      \
        *value = handle->FIELD;                                      \
        return CUBLAS_STATUS_SUCCESS;                                \
    }

/* A setter with nothing to do but store: handle, then OK(value). */
#define SETTER(FN, T, FIELD, OK)                                     \
    cublasStatus_t FN(cublasHandle_t handle, T value)                \
    {                                                                \
        if (!simcublas_handle_ok(handle))                            \
            return CUBLAS_STATUS_NOT_INITIALIZED;                    \
        if (!OK(value))                                              \
            return CUBLAS_STATUS_INVALID_VALUE;                      \
        handle->FIELD = value;                                       \
        return CUBLAS_STATUS_SUCCESS;                                \
    }

/* Real cuBLAS also drops a user workspace when the stream changes. */
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
    if (!simcublas_handle_ok(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    handle->workspace = NULL;
    handle->workspace_size = 0;
    return CUBLAS_STATUS_SUCCESS;
}
GETTER(cublasGetStream_v2, cudaStream_t, stream)

static bool pointer_mode_ok(cublasPointerMode_t mode)
{
    return mode == CUBLAS_POINTER_MODE_HOST || mode == CUBLAS_POINTER_MODE_DEVICE;
}
SETTER(cublasSetPointerMode_v2, cublasPointerMode_t, pointer_mode, pointer_mode_ok)
GETTER(cublasGetPointerMode_v2, cublasPointerMode_t, pointer_mode)

/* A base mode, optionally with the reduced-precision-reduction flag. */
static bool math_mode_ok(cublasMath_t mode)
{
    unsigned base = (unsigned)mode & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    return base <= CUBLAS_FP32_EMULATED_BF16X9_MATH || base == CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH;
}
SETTER(cublasSetMathMode, cublasMath_t, math_mode, math_mode_ok)
GETTER(cublasGetMathMode, cublasMath_t, math_mode)

static bool atomics_ok(cublasAtomicsMode_t mode)
{
    return mode == CUBLAS_ATOMICS_NOT_ALLOWED || mode == CUBLAS_ATOMICS_ALLOWED;
}
SETTER(cublasSetAtomicsMode, cublasAtomicsMode_t, atomics, atomics_ok)
GETTER(cublasGetAtomicsMode, cublasAtomicsMode_t, atomics)

/* The documented contract: a workspace must be 256-byte aligned. */
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes)
{
    if (!simcublas_handle_ok(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if ((uintptr_t)workspace % 256 != 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->workspace = workspace;
    handle->workspace_size = workspace ? workspaceSizeInBytes : 0;
    return CUBLAS_STATUS_SUCCESS;
}

static bool sm_count_ok(int sm_count) { return sm_count >= 0; }
SETTER(cublasSetSmCountTarget, int, sm_count, sm_count_ok)
GETTER(cublasGetSmCountTarget, int, sm_count)

/* Any strategy is stored; GEMMs do not read it. */
static bool any_strategy(cublasEmulationStrategy_t strategy) { return (void)strategy, true; }
SETTER(cublasSetEmulationStrategy, cublasEmulationStrategy_t, emulation, any_strategy)
GETTER(cublasGetEmulationStrategy, cublasEmulationStrategy_t, emulation)

/* The fixed-point emulation controls: stored and read back, as the GEMMs
 * compute natively (defaults as cublas_api.h documents them). A special
 * value mask holds only INFINITY and NAN bits (or the default, all); a bit
 * count or offset is not negative. */
static bool special_ok(cudaEmulationSpecialValuesSupport m)
{
    unsigned known = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY | CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN;
    return m == CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT || ((unsigned)m & ~known) == 0;
}
static bool mantissa_ok(cudaEmulationMantissaControl c)
{
    return c == CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC || c == CUDA_EMULATION_MANTISSA_CONTROL_FIXED;
}
static bool bits_ok(int bits) { return bits >= 0; }
static bool any_pointer(int *p) { return (void)p, true; }
SETTER(cublasSetEmulationSpecialValuesSupport, cudaEmulationSpecialValuesSupport, emu_special, special_ok)
GETTER(cublasGetEmulationSpecialValuesSupport, cudaEmulationSpecialValuesSupport, emu_special)
SETTER(cublasSetFixedPointEmulationMantissaControl, cudaEmulationMantissaControl, emu_mantissa, mantissa_ok)
GETTER(cublasGetFixedPointEmulationMantissaControl, cudaEmulationMantissaControl, emu_mantissa)
SETTER(cublasSetFixedPointEmulationMaxMantissaBitCount, int, emu_max_bits, bits_ok)
GETTER(cublasGetFixedPointEmulationMaxMantissaBitCount, int, emu_max_bits)
SETTER(cublasSetFixedPointEmulationMantissaBitOffset, int, emu_bit_offset, bits_ok)
GETTER(cublasGetFixedPointEmulationMantissaBitOffset, int, emu_bit_offset)
SETTER(cublasSetFixedPointEmulationMantissaBitCountPointer, int *, emu_bit_count, any_pointer)
GETTER(cublasGetFixedPointEmulationMantissaBitCountPointer, int *, emu_bit_count)
