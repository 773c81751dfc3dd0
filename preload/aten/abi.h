/* ATen's launch layouts for TensorIterator's elementwise kernels, as the
 * pinned PyTorch build passes them (the one place they live: the stand-in's
 * twins and the preload's decoder both read them). Pure C, no CUDA types.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel from PyPI) by dumping the
 * parameter bytes of real launches on the stand-in (gdb on cuLaunchKernel)
 * and against aten/src/ATen/cuda/detail/OffsetCalculator.cuh,
 * IntegerDivider.cuh and native/cuda/CUDALoops.cuh.
 *
 * Kernels and their parameters (nt threads a block, vt items a thread):
 *   elementwise_kernel<nt, vt, closure>(int N, closure f)
 *     gpu_kernel_impl_nocast's closure: OffsetCalculator<K> (K = arity+1,
 *     output first), std::array<char*, K> data, the functor;
 *     gpu_kernel_impl's (casting) closure adds the dtypes and inner
 *     strides (see ATEN_EW_CAST_*).
 *   vectorized_elementwise_kernel<vec, functor, std::array<char*,K>>
 *     (int N, functor f, std::array<char*,K> data): contiguous tensors.
 *   unrolled_elementwise_kernel<functor, std::array<char*,K>, inp_calc,
 *     out_calc, loader, storer>(int N, functor, data, inp_calc, out_calc,
 *     loader, storer). */
#ifndef TF_ATEN_ABI_H
#define TF_ATEN_ABI_H

#include <stddef.h>
#include <stdint.h>

#define ATEN_ABI_TORCH_VERSION "2.15.0"

/* at::cuda::detail::IntDivider<uint32_t>: n / d == (umulhi(n, m1) + n) >> shift. */
typedef struct aten_int_divider {
    uint32_t divisor;
    uint32_t m1;
    uint32_t shift;
} aten_int_divider;
_Static_assert(sizeof(aten_int_divider) == 12, "IntDivider<uint32_t> is 12 bytes");

/* OffsetCalculator<K, uint32_t, false>:
 *   int dims; IntDivider<uint32_t> sizes_[25]; uint32_t strides_[25][K];
 * strides in bytes, dimension 0 the fastest; slots past dims hold stale
 * stack bytes (never read them). 4-byte aligned. */
#define ATEN_MAX_DIMS 25
#define ATEN_OC_DIMS 0
#define ATEN_OC_SIZES 4
#define ATEN_OC_STRIDES (ATEN_OC_SIZES + ATEN_MAX_DIMS * 12)
#define ATEN_OC_BYTES(K) (ATEN_OC_STRIDES + ATEN_MAX_DIMS * 4 * (K))
_Static_assert(ATEN_OC_STRIDES == 304, "strides follow 25 dividers");
_Static_assert(ATEN_OC_BYTES(2) == 504, "OffsetCalculator<2> is 504 bytes (measured)");

#define ATEN_ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

/* gpu_kernel_impl_nocast's closure: [offset_calc, data, f]. */
#define ATEN_EW_NOCAST_DATA(K) ATEN_ALIGN(ATEN_OC_BYTES(K), 8)
#define ATEN_EW_NOCAST_FUNCTOR(K) (ATEN_EW_NOCAST_DATA(K) + 8 * (K))
/* The closure's size given the functor's size and alignment. */
#define ATEN_EW_NOCAST_BYTES(K, fsize, falign) \
    ATEN_ALIGN(ATEN_ALIGN(ATEN_EW_NOCAST_FUNCTOR(K), (falign)) + (fsize), 8)
_Static_assert(ATEN_EW_NOCAST_DATA(2) == 504, "direct copy's data at byte 504 (measured)");

/* gpu_kernel_impl's casting closure: [offset_calc, data, f, dtypes], the
 * dtypes being std::array<c10::ScalarType, K> (one byte each, output
 * first) right after the functor. Measured: a strided float->double copy
 * has its dtypes at 521 (empty functor at 520); a strided float+half add
 * (CUDAFunctor_add<float>, K = 3) its alpha at 632 and dtypes at 636. */
#define ATEN_EW_CAST_FUNCTOR(K, falign) ATEN_ALIGN(ATEN_EW_NOCAST_FUNCTOR(K), (falign))
#define ATEN_EW_CAST_DTYPES(K, fsize, falign) (ATEN_EW_CAST_FUNCTOR(K, falign) + (fsize))
#define ATEN_EW_CAST_BYTES(K, fsize, falign) ATEN_ALIGN(ATEN_EW_CAST_DTYPES(K, fsize, falign) + (K), 8)
_Static_assert(ATEN_EW_CAST_DTYPES(2, 1, 1) == 521, "casting copy's dtypes at 521 (measured)");
_Static_assert(ATEN_EW_CAST_DTYPES(3, 4, 4) == 636, "casting add's dtypes at 636 (measured)");

/* The contiguous casting kernel's loader and storer (MemoryAccess.cuh):
 * LoadWithCast<N>: ScalarType dtypes[N], padded to 4, uint32_t sizes[N];
 * StoreWithCast<1>: ScalarType dtype, padded to 4, uint32_t size. Empty
 * types (TrivialOffsetCalculator, LoadWithoutCast) are 1 byte. */
#define ATEN_LOAD_WITH_CAST_BYTES(N) (ATEN_ALIGN((N), 4) + 4 * (N))
#define ATEN_STORE_WITH_CAST_BYTES 8
_Static_assert(ATEN_LOAD_WITH_CAST_BYTES(2) == 12, "LoadWithCast<2> (measured: dtypes at 0, sizes at 4)");
_Static_assert(ATEN_EW_NOCAST_BYTES(2, 1, 1) == 528, "direct copy's closure is 528 bytes (measured)");

#endif
