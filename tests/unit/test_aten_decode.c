/* preload/aten's decoder on synthetic launches laid out as torch 2.15.0
 * lays them out (abi.h), and on the demangled names the wheel's kernels
 * carry: the direct copy's transposes (2-D, batched, every dtype) are
 * transposes; slices, broadcasts and other permutations are not; anything
 * that does not validate (dims, divisors, N, parameter sizes, offsets that
 * would wrap) is not decoded. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "aten/abi_index.h"
#include "aten/abi_multi_tensor.h"
#include "aten/abi_random.h"
#include "aten/abi_reduce.h"
#include "aten/decode.h"

#define COPY(T) \
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(" T ")#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(" T ")#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(" T ")#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(" T ")#1} const&)::{lambda(int)#1})"
#define CONVERT \
    "void at::native::vectorized_elementwise_kernel<4, at::native::converting_copy_kernel_cuda<c10::BFloat16, float>(at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>, false>(int, at::native::converting_copy_kernel_cuda<c10::BFloat16, float>(at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)"
#define ADD \
    "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>, false>(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)"
#define MUL_SCALAR \
    "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>, false>(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)"
#define SIGMOID \
    "void at::native::vectorized_elementwise_kernel<4, at::native::SomeFunctor<float>, std::array<char*, 2ul>, false>(int, at::native::SomeFunctor<float>, std::array<char*, 2ul>)"
#define UNROLLED_CAST \
    "void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, 4, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1>)"
#define UNROLLED_STRIDED \
    "void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, 4, OffsetCalculator<2, unsigned int, false>, OffsetCalculator<1, unsigned int, false>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast>(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, OffsetCalculator<2, unsigned int, false>, OffsetCalculator<1, unsigned int, false>, at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast)"
/* torch.randn(..., dtype=bfloat16, device='cuda') on torch 2.15.0 (1-d closure #1). */
#define RANDN \
    "void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#1}, at::native::(anonymous namespace)::distribution_nullary_kernel<c10::BFloat16, float, float4, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#1}, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#1} const&, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(int, float)#1}>(long, at::PhiloxCudaState, at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#1}, at::native::(anonymous namespace)::distribution_nullary_kernel<c10::BFloat16, float, float4, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#1}, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::CUDAGeneratorImpl*, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(curandStatePhilox4_32_10*)#1} const&, at::native::templates::cuda::normal_kernel<at::CUDAGeneratorImpl*>(at::TensorBase const&, double, double, at::CUDAGeneratorImpl*)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1})::{lambda(int, float)#1})"
/* x[..., ::2] + g (bf16 slice + float): gpu_kernel_impl's casting closure. */
#define CAST_ADD \
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})"
#define DROPOUT_VEC \
    "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<c10::BFloat16, float, unsigned int, 1, 4, bool>(at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, at::PhiloxCudaState)"
#define DROPOUT_STRIDED \
    "void at::native::(anonymous namespace)::fused_dropout_kernel<float, float, unsigned int, -1, 1, unsigned char>(at::cuda::detail::TensorInfo<float const, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<unsigned char, unsigned int>, unsigned int, float, at::PhiloxCudaState)"
#define FOREACH_ADD \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)"
#define FOREACH_SCALAR_TENSOR \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarTensorFunctor<float, 1, 1, 0>, std::multiplies<float>, float*, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarTensorFunctor<float, 1, 1, 0>, std::multiplies<float>, float*, float)"
#define REDUCE \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4, 8> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4, 8>)"

#define MEAN \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)"
#define AMAX \
    "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::Half, at::native::func_wrapper_t<c10::Half, at::native::MaxNanFunctor<c10::Half> >, unsigned int, c10::Half, 4, 4> >(at::native::ReduceOp<c10::Half, at::native::func_wrapper_t<c10::Half, at::native::MaxNanFunctor<c10::Half> >, unsigned int, c10::Half, 4, 4>)"
#define MAX_DIM \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::MaxOps<c10::BFloat16>, unsigned int, c10::BFloat16, 4, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::MaxOps<c10::BFloat16>, unsigned int, c10::BFloat16, 4, 4>)"
#define VAR_MEAN \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::WelfordOps<float, float, int, cuda::std::__4::pair<float, float> >, unsigned int, float, 2, 2> >(at::native::ReduceOp<float, at::native::WelfordOps<float, float, int, cuda::std::__4::pair<float, float> >, unsigned int, float, 2, 2>)"
#define ARGMAX \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::Half, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(at::native::ReduceOp<c10::Half, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4>)"

#define NOCAST_ADD \
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1})"
#define NOCAST_COMPARE \
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::CompareFunctor<c10::Half> >(at::TensorIteratorBase&, at::native::(anonymous namespace)::CompareFunctor<c10::Half> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::CompareFunctor<c10::Half> >(at::TensorIteratorBase&, at::native::(anonymous namespace)::CompareFunctor<c10::Half> const&)::{lambda(int)#1})"
#define NOCAST_ABS \
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::AbsFunctor<long> >(at::TensorIteratorBase&, at::native::AbsFunctor<long> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::AbsFunctor<long> >(at::TensorIteratorBase&, at::native::AbsFunctor<long> const&)::{lambda(int)#1})"
#define BINARY_LAMBDA \
    "void at::native::vectorized_elementwise_kernel<2, at::native::BinaryFunctor<double, double, double, at::native::(anonymous namespace)::threshold_kernel_impl<double>(at::TensorIteratorBase&, double, double)::{lambda(double, double)#1}>, std::array<char*, 3ul>, false>(int, at::native::BinaryFunctor<double, double, double, at::native::(anonymous namespace)::threshold_kernel_impl<double>(at::TensorIteratorBase&, double, double)::{lambda(double, double)#1}>, std::array<char*, 3ul>)"
#define NOCAST_UNKNOWN \
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::SomeFunctor<float> >(at::TensorIteratorBase&, at::native::SomeFunctor<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::SomeFunctor<float> >(at::TensorIteratorBase&, at::native::SomeFunctor<float> const&)::{lambda(int)#1})"

#define FOREACH_DIV_LIST \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListScalarListMetadata<float, 1>, at::native::(anonymous namespace)::BinaryOpScalarListFunctor<c10::BFloat16, 1, 1, 0>, std::divides<float> >(at::native::(anonymous namespace)::TensorListScalarListMetadata<float, 1>, at::native::(anonymous namespace)::BinaryOpScalarListFunctor<c10::BFloat16, 1, 1, 0>, std::divides<float>)"

#define SOFTMAX_FWD \
    "void (anonymous namespace)::softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 4, true, false, 32>(c10::BFloat16*, c10::BFloat16 const*, int, int, int, bool const*, int, bool)"
#define SOFTMAX_MASKED \
    "void (anonymous namespace)::softmax_warp_forward<float, float, float, 4, false, true, 32>(float*, float const*, int, int, int, bool const*, int, bool)"
#define NLL_FWD \
    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<c10::Half, float, long>(c10::Half*, c10::Half*, c10::Half const*, long const*, c10::Half const*, bool, long, long, long, long)"
#define LAYER_NORM \
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, false>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)"

/* A nocast closure for a 2-operand copy, as ATen builds it: dividers as
 * IntDivider computes them, stale bytes past dims. */
typedef struct launch {
    int32_t n;
    unsigned char closure[ATEN_EW_NOCAST_BYTES(2, 1, 1)];
    void *params[2];
    size_t sizes[2];
} launch;

static void put_divider(unsigned char *c, int d, uint32_t div)
{
    uint32_t shift = 0;
    while ((1ull << shift) < div)
        shift++;
    uint32_t m1 = (uint32_t)(((1ull << 32) * ((1ull << shift) - div)) / div + 1);
    uint32_t v[3] = { div, m1, shift };
    memcpy(c + ATEN_OC_SIZES + 12 * d, v, 12);
}

static void make(launch *l, int dims, const uint32_t *sizes, const uint32_t (*strides)[2], uint64_t out, uint64_t in)
{
    memset(l->closure, 0xA5, sizeof l->closure); /* stale stack bytes */
    memcpy(l->closure, &dims, 4);
    l->n = 1;
    for (int d = 0; d < dims; d++) {
        put_divider(l->closure, d, sizes[d]);
        memcpy(l->closure + ATEN_OC_STRIDES + 8 * d, strides[d], 8);
        l->n *= (int32_t)sizes[d];
    }
    memcpy(l->closure + ATEN_EW_NOCAST_DATA(2), &out, 8);
    memcpy(l->closure + ATEN_EW_NOCAST_DATA(2) + 8, &in, 8);
    l->params[0] = &l->n;
    l->params[1] = l->closure;
    l->sizes[0] = 4;
    l->sizes[1] = sizeof l->closure;
}

static void test_parse_names(void **state)
{
    (void)state;
    aten_kernel k;
    char label[96];
    assert_true(aten_kernel_parse(COPY("c10::BFloat16"), &k));
    assert_int_equal(k.family, ATEN_FAM_LEGACY);
    assert_int_equal(k.nargs, 2);
    assert_true(k.copy && k.exact[0] && k.exact[1]);
    assert_int_equal(k.elem[0], 2);
    assert_int_equal(k.vt, 4);
    aten_kernel_label(&k, label, sizeof label);
    assert_string_equal(label, "at::native direct_copy (bf16)");

    assert_true(aten_kernel_parse(COPY("c10::complex<double>"), &k));
    assert_int_equal(k.elem[0], 16);
    assert_true(aten_kernel_parse(CONVERT, &k));
    assert_int_equal(k.family, ATEN_FAM_VECTORIZED);
    assert_false(k.copy);
    assert_int_equal(k.elem[0], 4);
    assert_int_equal(k.elem[1], 2);
    assert_string_equal(k.op, "converting_copy");

    assert_true(aten_kernel_parse(ADD, &k)); /* CUDAFunctor_add<T>: every operand a T */
    assert_int_equal(k.nargs, 3);
    assert_true(k.exact[0] && k.exact[1] && k.exact[2]);
    assert_int_equal(k.elem[0], 2);
    assert_int_equal(k.elem[2], 2);
    assert_string_equal(k.op, "CUDAFunctor_add");
    assert_true(aten_kernel_parse(MUL_SCALAR, &k)); /* AUnaryFunctor<float, float, float, Mul> */
    assert_int_equal(k.nargs, 2);
    assert_true(k.exact[0] && k.exact[1]);
    assert_int_equal(k.elem[0], 4);
    assert_int_equal(k.elem[1], 4);
    assert_true(aten_kernel_parse(SIGMOID, &k)); /* an unknown struct: bounded */
    assert_false(k.exact[0] || k.exact[1]);
    assert_int_equal(k.elem[0], 4); /* 16 / vec 4 */
    assert_int_equal(k.elem[1], ATEN_MAX_ELEM);

    assert_true(aten_kernel_parse(REDUCE, &k)); /* sum of bf16, float accumulator */
    assert_int_equal(k.family, ATEN_FAM_REDUCE);
    assert_int_equal(k.elem[0], 2);
    assert_int_equal(k.elem[1], 2);
    assert_int_equal(k.arg_size, 4);
    assert_string_equal(k.op, "sum");
    char vec_out[sizeof REDUCE];
    memcpy(vec_out, REDUCE, sizeof REDUCE);
    /* a vectorized output stores output i of a vector at the calculator's
     * offset of output_idx + i: decoded as any other */
    vec_out[strlen("void at::native::reduce_kernel<512, ")] = '4';
    assert_true(aten_kernel_parse(vec_out, &k));
    vec_out[strlen("void at::native::reduce_kernel<512, ")] = '3';
    assert_false(aten_kernel_parse(vec_out, &k));
    assert_true(aten_kernel_parse(MEAN, &k)); /* MeanOps {float factor}: ident at 4 */
    assert_int_equal(k.nargs, 2);
    assert_int_equal(k.ops_size, 4);
    assert_int_equal(k.arg_size, 4);
    assert_string_equal(k.op, "mean");
    assert_true(aten_kernel_parse(AMAX, &k)); /* func_wrapper_t<Half, MaxNanFunctor<Half>>: arg Half */
    assert_int_equal(k.arg_size, 2);
    assert_string_equal(k.op, "amax");
    assert_true(aten_kernel_parse(MAX_DIM, &k)); /* values and int64 indices, then the input */
    assert_int_equal(k.nargs, 3);
    assert_int_equal(k.nout, 2);
    assert_int_equal(k.elem[0], 2);
    assert_int_equal(k.elem[1], 8);
    assert_int_equal(k.elem[2], 2);
    assert_int_equal(k.arg_size, 16);
    assert_int_equal(k.arg_align, 8);
    assert_true(aten_kernel_parse(VAR_MEAN, &k)); /* WelfordOps<float>: 8-byte state, 16-byte data */
    assert_int_equal(k.nargs, 3);
    assert_int_equal(k.ops_size, 8);
    assert_int_equal(k.arg_size, 16);
    assert_int_equal(k.arg_align, 4);
    assert_int_equal(k.elem[1], 4);
    assert_true(aten_kernel_parse(ARGMAX, &k));
    assert_int_equal(k.nargs, 2);
    assert_int_equal(k.elem[0], 8);
    assert_int_equal(k.elem[1], 2);
    /* struct functors in the nocast closure: their types are the operands' */
    assert_true(aten_kernel_parse(NOCAST_ADD, &k));
    assert_int_equal(k.family, ATEN_FAM_LEGACY);
    assert_false(k.cast || k.copy);
    assert_int_equal(k.nargs, 3);
    assert_true(k.exact[0] && k.exact[1] && k.exact[2]);
    assert_int_equal(k.elem[0], 2);
    assert_true(aten_kernel_parse(NOCAST_COMPARE, &k)); /* bool (Half, Half) */
    assert_int_equal(k.nargs, 3);
    assert_int_equal(k.elem[0], 1);
    assert_int_equal(k.elem[1], 2);
    assert_int_equal(k.elem[2], 2);
    assert_true(aten_kernel_parse(NOCAST_ABS, &k));
    assert_int_equal(k.nargs, 2);
    assert_int_equal(k.elem[0], 8);
    assert_int_equal(k.vt, 2);
    assert_true(aten_kernel_parse(BINARY_LAMBDA, &k)); /* a struct wrapping a lambda */
    assert_int_equal(k.family, ATEN_FAM_VECTORIZED);
    assert_int_equal(k.nargs, 3);
    assert_true(k.exact[0] && k.exact[2]);
    assert_int_equal(k.elem[1], 8);
    assert_false(aten_kernel_parse(NOCAST_UNKNOWN, &k)); /* its operand count is not known */
    assert_false(aten_kernel_parse("_Z15transpose_naivePfPKfii", &k));
    assert_false(aten_kernel_parse("void at::native::elementwise_kernel<128, 4, foo>(int, foo)", &k));
    assert_false(aten_kernel_parse(NULL, &k));
}

/* W bf16 [64, 96] -> W.t().contiguous(), as measured on the wheel. */
static void test_transpose_2d(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    launch l;
    tf_view src, dst, w;
    const uint32_t sizes[] = { 64, 96 };
    const uint32_t strides[][2] = { { 2, 192 }, { 128, 2 } };
    assert_true(aten_kernel_parse(COPY("c10::BFloat16"), &k));
    make(&l, 2, sizes, strides, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_int_equal(it.n, 6144);
    assert_true(aten_transpose(&k, &it, &src, &dst));
    assert_int_equal(dst.addr, 0x10000);
    assert_int_equal(dst.rows, 64);
    assert_int_equal(dst.cols, 96);
    assert_int_equal(dst.ld, 64);
    assert_int_equal(src.addr, 0x20000);
    assert_int_equal(src.rows, 96);
    assert_int_equal(src.cols, 64);
    assert_int_equal(src.ld, 96);
    assert_true(aten_output_view(&k, &it, &w));
    assert_true(tf_view_covers(&w, &dst));
    tf_range r = aten_operand_range(&k, &it, 1);
    assert_int_equal(r.lo, 0x20000);
    assert_int_equal(r.hi, 0x20000 + 6144 * 2);
    assert_true(aten_launch_complete(&k, &it, 12, 128));
    assert_false(aten_launch_complete(&k, &it, 11, 128));
}

/* k.transpose(-2, -1).contiguous() of f32 [2*3, 5, 7]: batched. */
static void test_transpose_batched(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    launch l;
    tf_view src, dst;
    const uint32_t sizes[] = { 5, 7, 6 };
    const uint32_t strides[][2] = { { 4, 28 }, { 20, 4 }, { 140, 140 } };
    assert_true(aten_kernel_parse(COPY("float"), &k));
    make(&l, 3, sizes, strides, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_true(aten_transpose(&k, &it, &src, &dst));
    assert_int_equal(dst.batch, 6);
    assert_int_equal(dst.stride, 35);
    assert_int_equal(src.batch, 6);
    assert_int_equal(src.stride, 35);
    assert_int_equal(src.ld, 7);
}

/* Copies that are not transposes: a slice, a broadcast, a permutation
 * with the transposed pair outside. */
static void test_not_transposes(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    launch l;
    tf_view src, dst, w;
    assert_true(aten_kernel_parse(COPY("float"), &k));
    const uint32_t slice_sizes[] = { 32, 64 };
    const uint32_t slice[][2] = { { 4, 4 }, { 128, 384 } }; /* W[:, :32].contiguous() */
    make(&l, 2, slice_sizes, slice, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_false(aten_transpose(&k, &it, &src, &dst));
    assert_true(aten_output_view(&k, &it, &w)); /* a dense write all the same */
    assert_int_equal(tf_view_footprint(&w).hi - w.addr, 32 * 64 * 4);

    const uint32_t bc[][2] = { { 4, 4 }, { 128, 0 } }; /* broadcast rows */
    make(&l, 2, slice_sizes, bc, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_false(aten_transpose(&k, &it, &src, &dst));

    const uint32_t p_sizes[] = { 5, 6, 7 };
    const uint32_t perm[][2] = { { 4, 168 }, { 20, 28 }, { 120, 4 } }; /* transposed pair 0 and 2 */
    make(&l, 3, p_sizes, perm, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_false(aten_transpose(&k, &it, &src, &dst));
}

/* A strided output with gaps (every other column) is no dense write; one
 * whose rows have gaps is no view at all: only a "may write". */
static void test_gappy_output(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    launch l;
    tf_view w;
    assert_true(aten_kernel_parse(COPY("float"), &k));
    const uint32_t sizes[] = { 8, 4 };
    const uint32_t cols[][2] = { { 4, 4 }, { 64, 32 } };
    make(&l, 2, sizes, cols, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_true(aten_output_view(&k, &it, &w));
    assert_int_equal(w.ld, 16);
    assert_int_equal(w.rows, 8);
    tf_view all = tf_view_dense(0x10000, 4 * 64);
    assert_false(tf_view_covers(&w, &all));
    const uint32_t rows[][2] = { { 8, 4 }, { 64, 32 } }; /* every other element */
    make(&l, 2, sizes, rows, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_false(aten_output_view(&k, &it, &w));
    tf_range r = aten_operand_range(&k, &it, 0);
    assert_int_equal(r.hi - r.lo, 7 * 8 + 3 * 64 + 4);
    const uint32_t sizes3[] = { 8, 4, 3 };
    const uint32_t overlap[][2] = { { 4, 4 }, { 64, 32 }, { 128, 128 } }; /* batch 2 starts inside batch 1 */
    make(&l, 3, sizes3, overlap, 0x10000, 0x20000);
    assert_true(aten_decode(&k, l.params, l.sizes, 2, &it));
    assert_false(aten_output_view(&k, &it, &w));
}

/* What must not decode. */
static void test_rejects(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    launch l;
    const uint32_t sizes[] = { 64, 96 };
    const uint32_t strides[][2] = { { 2, 192 }, { 128, 2 } };
    assert_true(aten_kernel_parse(COPY("c10::BFloat16"), &k));

    make(&l, 2, sizes, strides, 0x10000, 0x20000);
    l.n = 6000; /* N is not the product of the sizes */
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));

    make(&l, 2, sizes, strides, 0x10000, 0x20000);
    int32_t bad = 26;
    memcpy(l.closure, &bad, 4);
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));
    bad = 0;
    memcpy(l.closure, &bad, 4);
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));

    make(&l, 2, sizes, strides, 0x10000, 0x20000);
    uint32_t m1 = 7; /* a divider IntDivider would not make */
    memcpy(l.closure + ATEN_OC_SIZES + 12 + 4, &m1, 4);
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));

    make(&l, 2, sizes, strides, 0x10000, 0x20000);
    l.sizes[1] = 536; /* a closure of another size: another layout */
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));
    l.sizes[1] = sizeof l.closure;
    assert_false(aten_decode(&k, l.params, l.sizes, 1, &it));

    const uint32_t huge[][2] = { { 2, 0x8000000 }, { 128, 2 } }; /* offsets past 2^32 */
    make(&l, 2, sizes, huge, 0x10000, 0x20000);
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));

    make(&l, 2, sizes, strides, 0x10000, 0); /* a null operand */
    assert_false(aten_decode(&k, l.params, l.sizes, 2, &it));
}

/* The vectorized family: contiguous operands of N elements. */
static void test_vectorized(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    int32_t n = 6144;
    unsigned char f = 0;
    uint64_t data[2] = { 0x30000, 0x40000 };
    void *params[3] = { &n, &f, data };
    size_t sizes[3] = { 4, 1, 16 };
    tf_view w;
    assert_true(aten_kernel_parse(CONVERT, &k));
    assert_true(aten_decode(&k, params, sizes, 3, &it));
    assert_true(aten_output_view(&k, &it, &w));
    assert_int_equal(tf_view_footprint(&w).hi, 0x30000 + 6144 * 4);
    tf_range r = aten_operand_range(&k, &it, 1);
    assert_int_equal(r.hi, 0x40000 + 6144 * 2);
    sizes[2] = 24;
    assert_false(aten_decode(&k, params, sizes, 3, &it));
}

/* The unrolled kernel, contiguous and casting: float + bf16 -> float
 * (LoadWithCast<2>, StoreWithCast<1>): element sizes from the launch's
 * dtypes, each checked against its ScalarType. */
static void test_unrolled_cast(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    tf_view w;
    int32_t n = 1152;
    float alpha = 1.0f;
    uint64_t data[3] = { 0x10000, 0x20000, 0x30000 };
    unsigned char ic = 0, oc = 0, load[12] = { 6, 15, 0xA5, 0xA5 }, store[8] = { 6, 0xA5, 0xA5, 0xA5 };
    uint32_t ls[2] = { 4, 2 }, ss = 4;
    memcpy(load + 4, ls, 8);
    memcpy(store + 4, &ss, 4);
    void *params[7] = { &n, &alpha, data, &ic, &oc, load, store };
    size_t sizes[7] = { 4, 4, 24, 1, 1, 12, 8 };
    assert_true(aten_kernel_parse(UNROLLED_CAST, &k));
    assert_int_equal(k.family, ATEN_FAM_UNROLLED);
    assert_true(k.cast && k.trivial);
    assert_int_equal(k.vt, 4);
    assert_true(aten_decode(&k, params, sizes, 7, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x10000 + 1152 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x20000 + 1152 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x30000 + 1152 * 2);
    assert_true(aten_output_view(&k, &it, &w));
    assert_int_equal(tf_view_footprint(&w).hi, 0x10000 + 1152 * 4);
    assert_true(aten_launch_complete(&k, &it, 3, 128));  /* 3 x 128 x 4 >= 1152 */
    assert_false(aten_launch_complete(&k, &it, 2, 128)); /* stops short */

    ls[1] = 4; /* a size its dtype (bf16) does not have */
    memcpy(load + 4, ls, 8);
    assert_false(aten_decode(&k, params, sizes, 7, &it));
    ls[1] = 2;
    memcpy(load + 4, ls, 8);
    store[0] = 44; /* no ScalarType */
    assert_false(aten_decode(&k, params, sizes, 7, &it));
    store[0] = 6;
    sizes[5] = 16; /* another loader: another layout */
    assert_false(aten_decode(&k, params, sizes, 7, &it));
    sizes[5] = 12;
    assert_true(aten_decode(&k, params, sizes, 7, &it));
}

/* The unrolled kernel with real calculators (strides in elements): the
 * input and output calculators share dims and sizes. */
static void test_unrolled_strided(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    int32_t n = 32;
    float alpha = 1.0f;
    uint64_t data[3] = { 0x10000, 0x20000, 0x30000 };
    unsigned char ic[ATEN_OC_BYTES(2)], oc[ATEN_OC_BYTES(1)], load = 0, store = 0;
    memset(ic, 0xA5, sizeof ic);
    memset(oc, 0xA5, sizeof oc);
    int32_t dims = 2;
    memcpy(ic, &dims, 4);
    memcpy(oc, &dims, 4);
    const uint32_t sz[2] = { 8, 4 }, ist[2][2] = { { 1, 4 }, { 8, 1 } }, ost[2] = { 1, 8 };
    for (int d = 0; d < 2; d++) {
        put_divider(ic, d, sz[d]);
        put_divider(oc, d, sz[d]);
        memcpy(ic + ATEN_OC_STRIDES + 8 * d, ist[d], 8);
        memcpy(oc + ATEN_OC_STRIDES + 4 * d, &ost[d], 4);
    }
    void *params[7] = { &n, &alpha, data, ic, oc, &load, &store };
    size_t sizes[7] = { 4, 4, 24, sizeof ic, sizeof oc, 1, 1 };
    assert_true(aten_kernel_parse(UNROLLED_STRIDED, &k));
    assert_false(k.cast || k.trivial);
    assert_true(aten_decode(&k, params, sizes, 7, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x10000 + 32 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x20000 + 32 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x30000 + (7 * 4 + 3) * 4 + 4);
    put_divider(oc, 1, 5); /* the output's sizes are not the inputs' */
    assert_false(aten_decode(&k, params, sizes, 7, &it));
}

/* torch.randn on the device: the 1-d closure writes numel elements at
 * stride0 bytes; under graph capture (seed and offset behind pointers) it
 * is not decoded. */
static void test_random(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    tf_view w;
    int64_t numel = 768;
    unsigned char philox[ATEN_PHILOX_BYTES] = { 0 }, dist = 0, closure[24];
    memset(closure, 0xA5, sizeof closure);
    uint64_t out = 0x50000;
    int32_t stride = 2;
    memcpy(closure + ATEN_RNG_1D_DATA, &out, 8);
    memcpy(closure + ATEN_RNG_1D_STRIDE, &stride, 4);
    void *params[4] = { &numel, philox, &dist, closure };
    size_t sizes[4] = { 8, ATEN_PHILOX_BYTES, 1, sizeof closure };
    assert_true(aten_kernel_parse(RANDN, &k));
    assert_int_equal(k.family, ATEN_FAM_RANDOM);
    assert_int_equal(k.nargs, 1);
    assert_int_equal(k.elem[0], 2);
    assert_false(k.strided);
    assert_true(aten_decode(&k, params, sizes, 4, &it));
    assert_true(aten_launch_complete(&k, &it, 1, 1)); /* a grid-stride loop */
    assert_true(aten_output_view(&k, &it, &w));
    assert_int_equal(tf_view_footprint(&w).lo, 0x50000);
    assert_int_equal(tf_view_footprint(&w).hi, 0x50000 + 768 * 2);

    philox[ATEN_PHILOX_CAPTURED] = 1;
    assert_false(aten_decode(&k, params, sizes, 4, &it));
    philox[ATEN_PHILOX_CAPTURED] = 0;
    stride = 0;
    memcpy(closure + ATEN_RNG_1D_STRIDE, &stride, 4);
    assert_false(aten_decode(&k, params, sizes, 4, &it));
    stride = 2;
    memcpy(closure + ATEN_RNG_1D_STRIDE, &stride, 4);
    numel = 0;
    assert_false(aten_decode(&k, params, sizes, 4, &it));
    numel = 768;
    sizes[1] = 24; /* not a PhiloxCudaState */
    assert_false(aten_decode(&k, params, sizes, 4, &it));
}

/* A ReduceOp for sum of bf16 (float accumulator): kept dims in
 * output_calc ([out, in] byte strides), reduced ones in input_calc. */
static void make_reduce_at(unsigned char *c, size_t cfg, int out_dims, uint32_t out_size,
                           const uint32_t *out_strides, uint32_t in_size, uint32_t in_stride)
{
    memset(c, 0, ATEN_RO_BYTES(cfg));
    memset(c + ATEN_RO_INPUT_CALC(cfg), 0xA5, ATEN_OC_BYTES(1) + ATEN_OC_BYTES(2));
    unsigned char *ic = c + ATEN_RO_INPUT_CALC(cfg), *oc = c + ATEN_RO_OUTPUT_CALC(cfg);
    int32_t one = 1, noutputs = 1;
    memcpy(ic, &one, 4);
    put_divider(ic, 0, in_size);
    memcpy(ic + ATEN_OC_STRIDES, &in_stride, 4);
    memcpy(oc, &out_dims, 4);
    if (out_dims) {
        put_divider(oc, 0, out_size);
        memcpy(oc + ATEN_OC_STRIDES, out_strides, 8);
    }
    uint64_t src = 0x60000, dst = 0x70000;
    memcpy(c + ATEN_RO_SRC(cfg), &src, 8);
    memcpy(c + ATEN_RO_DST(cfg), &dst, 8);
    c[ATEN_RO_FINAL_OUTPUT(cfg)] = 1;
    memcpy(c + ATEN_RO_NOUTPUTS(cfg), &noutputs, 4);
}

static void make_reduce(unsigned char *c, int out_dims, uint32_t out_size, const uint32_t *out_strides,
                        uint32_t in_size, uint32_t in_stride)
{
    make_reduce_at(c, ATEN_RO_CONFIG(1, 4, 4), out_dims, out_size, out_strides, in_size, in_stride);
}

/* max(dim=-1) of bf16 [6, 96]: ReduceOp<bf16, MaxOps<bf16>> (pair
 * identity: config at 24), values at dst[0] (bf16), indices at dst[1]
 * (int64: the values' offset / 2 * 8), the input last. */
static void test_reduce_two_outputs(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    size_t cfg = ATEN_RO_CONFIG(1, 16, 8);
    unsigned char c[ATEN_RO_BYTES(ATEN_RO_CONFIG(1, 16, 8))];
    void *params[1] = { c };
    size_t sizes[1] = { sizeof c };
    assert_int_equal(cfg, 24);
    assert_true(aten_kernel_parse(MAX_DIM, &k));
    const uint32_t os[2] = { 2, 192 };
    make_reduce_at(c, cfg, 1, 6, os, 96, 2);
    assert_false(aten_decode(&k, params, sizes, 1, &it)); /* noutputs 1: not the kernel's two */
    int32_t two = 2;
    uint64_t idx = 0x90000;
    memcpy(c + ATEN_RO_NOUTPUTS(cfg), &two, 4);
    memcpy(c + ATEN_RO_DST(cfg) + 8, &idx, 8);
    assert_true(aten_decode(&k, params, sizes, 1, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x70000 + 12);
    assert_int_equal(aten_operand_range(&k, &it, 1).lo, 0x90000);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x90000 + 48);
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x60000 + 5 * 192 + 95 * 2 + 2);
    sizes[0] = 1048; /* sum's layout: not this one */
    assert_false(aten_decode(&k, params, sizes, 1, &it));
}

static void test_reduce(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    tf_view w;
    size_t cfg = ATEN_RO_CONFIG(1, 4, 4);
    unsigned char c[ATEN_RO_BYTES(ATEN_RO_CONFIG(1, 4, 4))];
    void *params[1] = { c };
    size_t sizes[1] = { sizeof c };
    assert_int_equal(sizeof c, 1048); /* measured: sum<float>'s ReduceOp */
    assert_true(aten_kernel_parse(REDUCE, &k));

    make_reduce(c, 0, 0, NULL, 1152, 2); /* x.sum(): everything into one element */
    assert_true(aten_decode(&k, params, sizes, 1, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).lo, 0x70000);
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x70002);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x60000 + 1152 * 2);
    assert_false(aten_launch_complete(&k, &it, 1024, 512)); /* always a may-write */
    (void)w;

    const uint32_t os[2] = { 2, 192 }; /* x.sum(-1) of [6, 96] */
    make_reduce(c, 1, 6, os, 96, 2);
    assert_true(aten_decode(&k, params, sizes, 1, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x70000 + 12);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x60000 + 5 * 192 + 95 * 2 + 2);

    make_reduce(c, 0, 0, NULL, 1152, 2);
    uint64_t buf = 0x80000; /* a global reduction's buffers: unbounded */
    memcpy(c + ATEN_RO_ACC_BUF(cfg), &buf, 8);
    assert_false(aten_decode(&k, params, sizes, 1, &it));
    make_reduce(c, 0, 0, NULL, 1152, 2);
    memcpy(c + ATEN_RO_SEMAPHORES(cfg), &buf, 8);
    assert_false(aten_decode(&k, params, sizes, 1, &it));
    make_reduce(c, 0, 0, NULL, 1152, 2);
    c[ATEN_RO_ACCUMULATE(cfg)] = 1;
    assert_false(aten_decode(&k, params, sizes, 1, &it));
    make_reduce(c, 0, 0, NULL, 1152, 2);
    int32_t two = 2;
    memcpy(c + ATEN_RO_NOUTPUTS(cfg), &two, 4);
    assert_false(aten_decode(&k, params, sizes, 1, &it));
    make_reduce(c, 0, 0, NULL, 1152, 2);
    sizes[0] = 1040; /* another identity: another layout */
    assert_false(aten_decode(&k, params, sizes, 1, &it));
}

/* gpu_kernel_impl's casting closure, as measured for a strided float +
 * half add (K = 3): alpha at 632, dtypes at 636, 640 bytes. The dtypes'
 * place is not in the name: every place they can be is read, and sizes
 * are exact only where all agree. */
static void test_legacy_cast(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    tf_view w;
    unsigned char c[ATEN_EW_CAST_BYTES(3, 4, 4)];
    int32_t n = 576, dims = 1;
    uint32_t st[3] = { 4, 4, 4 };
    float alpha = 1.0f;
    uint64_t data[3] = { 0x10000, 0x20000, 0x30000 };
    assert_int_equal(sizeof c, 640);
    memset(c, 0xA5, sizeof c);
    memcpy(c, &dims, 4);
    put_divider(c, 0, 576);
    st[1] = 2 * 2; /* a bf16 slice, every other element */
    memcpy(c + ATEN_OC_STRIDES, st, 12);
    memcpy(c + 608, data, 24);
    memcpy(c + 632, &alpha, 4);
    c[636] = 6, c[637] = 15, c[638] = 6; /* float = bf16 + float */
    void *params[2] = { &n, c };
    size_t sizes[2] = { 4, sizeof c };
    assert_true(aten_kernel_parse(CAST_ADD, &k));
    assert_int_equal(k.family, ATEN_FAM_LEGACY);
    assert_true(k.cast && !k.copy);
    assert_int_equal(k.nargs, 3);
    assert_true(aten_decode(&k, params, sizes, 2, &it));
    assert_true(it.exact[0] && it.exact[1] && it.exact[2]);
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x10000 + 576 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x20000 + 575 * 4 + 2);
    assert_true(aten_output_view(&k, &it, &w));

    c[639] = 5; /* padding that reads as a dtype (half): a second place */
    assert_true(aten_decode(&k, params, sizes, 2, &it));
    assert_false(it.exact[0] || it.exact[1] || it.exact[2]);
    assert_int_equal(it.elem[1], 4); /* the larger of bf16 and float */
    assert_false(aten_output_view(&k, &it, &w)); /* only a may-write */

    c[636] = c[637] = c[638] = c[639] = 0xA5; /* no place holds dtypes */
    assert_false(aten_decode(&k, params, sizes, 2, &it));
}

static void put_tensor_info(unsigned char *ti, uint64_t data, int dims, const uint32_t *sizes, const uint32_t *strides)
{
    memset(ti, 0xA5, ATEN_TI_BYTES);
    memcpy(ti + ATEN_TI_DATA, &data, 8);
    memcpy(ti + ATEN_TI_SIZES, sizes, 4 * (size_t)dims);
    memcpy(ti + ATEN_TI_STRIDES, strides, 4 * (size_t)dims);
    memcpy(ti + ATEN_TI_DIMS, &dims, 4);
}

/* Dropout writes its output and its mask (both may-writes: operands 0
 * and 1), reads its source; the vector kernel at linear indices, the
 * plain one at the TensorInfos' offsets (the mask at the output's). */
static void test_dropout(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    unsigned char a[ATEN_TI_BYTES], b[ATEN_TI_BYTES], c[ATEN_TI_BYTES], philox[ATEN_PHILOX_BYTES] = { 0 };
    uint32_t n = 1152;
    float p = 0.75f;
    const uint32_t one_size[1] = { 1152 }, one_stride[1] = { 1 };
    put_tensor_info(a, 0x10000, 1, one_size, one_stride);
    put_tensor_info(b, 0x20000, 1, one_size, one_stride);
    put_tensor_info(c, 0x30000, 1, one_size, one_stride);
    void *params[6] = { a, b, c, &n, &p, philox };
    size_t sizes[6] = { ATEN_TI_BYTES, ATEN_TI_BYTES, ATEN_TI_BYTES, 4, 4, ATEN_PHILOX_BYTES };
    assert_true(aten_kernel_parse(DROPOUT_VEC, &k));
    assert_int_equal(k.family, ATEN_FAM_DROPOUT);
    assert_int_equal(k.nout, 2);
    assert_true(aten_decode(&k, params, sizes, 6, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x20000 + 1152 * 2); /* output */
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x30000 + 1152);     /* mask */
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x10000 + 1152 * 2); /* source */
    assert_false(aten_launch_complete(&k, &it, 1024, 256));
    philox[ATEN_PHILOX_CAPTURED] = 1;
    assert_false(aten_decode(&k, params, sizes, 6, &it));
    philox[ATEN_PHILOX_CAPTURED] = 0;
    sizes[4] = 8; /* acc_t double: another kernel */
    assert_false(aten_decode(&k, params, sizes, 6, &it));
    sizes[4] = 4;

    /* the plain kernel: a [12, 96] source read with stride 192 rows out of
     * a wider tensor, output and mask contiguous */
    const uint32_t asz[2] = { 96, 12 }, ast[2] = { 1, 192 };
    put_tensor_info(a, 0x10000, 2, asz, ast);
    assert_true(aten_kernel_parse(DROPOUT_STRIDED, &k));
    assert_true(aten_decode(&k, params, sizes, 6, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x20000 + 1152 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x30000 + 1152);
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x10000 + (95 + 11 * 192) * 4 + 4);
    const uint32_t bad[2] = { 96, 11 }; /* sizes that do not make n */
    put_tensor_info(a, 0x10000, 2, bad, ast);
    assert_false(aten_decode(&k, params, sizes, 6, &it));
    put_tensor_info(a, 0x10000, 0, bad, ast); /* no dims */
    assert_false(aten_decode(&k, params, sizes, 6, &it));
}

/* torch._foreach_add_(P, G, alpha): list 0 written in place, list 1 read;
 * each bounded by the hull of the chunks the launch's blocks take (the
 * metadata's slots past them are stale). */
static unsigned char meta2[ATEN_TL_BYTES(2)];

static void test_multi_tensor(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    unsigned char *m = meta2, f = 0, op = 0;
    float alpha = -0.125f;
    memset(m, 0xA5, sizeof meta2);
    /* tensor 0: 40 floats; tensor 1: 70000 floats (2 chunks) */
    uint64_t p0 = 0x100000, p1 = 0x200000, g0 = 0x300000, g1 = 0x400000;
    int64_t n0 = 40, n1 = 70000;
    memcpy(m + ATEN_TL_ADDRESSES(2, 0), &p0, 8);
    memcpy(m + ATEN_TL_ADDRESSES(2, 0) + 8, &p1, 8);
    memcpy(m + ATEN_TL_ADDRESSES(2, 1), &g0, 8);
    memcpy(m + ATEN_TL_ADDRESSES(2, 1) + 8, &g1, 8);
    memcpy(m + ATEN_TL_NUMEL(2), &n0, 8);
    memcpy(m + ATEN_TL_NUMEL(2) + 8, &n1, 8);
    const uint16_t b2t[3] = { 0, 1, 1 };
    const int32_t b2c[3] = { 0, 0, 1 };
    memcpy(m + ATEN_TL_B2T(2), b2t, sizeof b2t);
    memcpy(m + ATEN_TL_B2C(2), b2c, sizeof b2c);
    void *params[4] = { m, &f, &op, &alpha };
    size_t sizes[4] = { sizeof meta2, 1, 1, 4 };
    assert_true(aten_kernel_parse(FOREACH_ADD, &k));
    assert_int_equal(k.family, ATEN_FAM_MULTI_TENSOR);
    assert_int_equal(k.depth, 2);
    assert_int_equal(k.res, 0);
    /* two tensors, two lists: an operand each (P's tensors written, then
     * G's), nothing between them */
    assert_true(aten_decode_blocks(&k, params, sizes, 4, 3, &it));
    assert_int_equal(it.nargs, 4);
    assert_int_equal(it.nout, 2);
    assert_int_equal(aten_operand_range(&k, &it, 0).lo, 0x100000); /* written: P */
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x100000 + 40 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 1).lo, 0x200000);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x200000 + 70000 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 2).lo, 0x300000); /* read: G */
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x300000 + 40 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 3).hi, 0x400000 + 70000 * 4);
    assert_false(aten_launch_complete(&k, &it, 3, 512));

    assert_true(aten_decode_blocks(&k, params, sizes, 4, 1, &it)); /* one block: tensor 0 only */
    assert_int_equal(it.nargs, 2);
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x100000 + 40 * 4);
    assert_false(aten_decode_blocks(&k, params, sizes, 4, 0, &it)); /* blocks unknown */
    assert_false(aten_decode(&k, params, sizes, 4, &it));
    assert_false(aten_decode_blocks(&k, params, sizes, 4, 4, &it)); /* a stale slot (tensor 0xA5A5) */
    int32_t c2 = 2; /* a chunk past the tensor's end */
    memcpy(m + ATEN_TL_B2C(2) + 8, &c2, 4);
    assert_false(aten_decode_blocks(&k, params, sizes, 4, 3, &it));
    memcpy(m + ATEN_TL_B2C(2) + 8, &b2c[2], 4);
    /* five tensors of 2 lists are more operands than kept apart: each
     * list is the hull of its chunks */
    for (int t = 0; t < 5; t++) {
        uint64_t pa = 0x100000 + 0x1000 * (uint64_t)t, ga = 0x300000 + 0x1000 * (uint64_t)t;
        int64_t nt = 16;
        uint16_t bt = (uint16_t)t;
        int32_t bc = 0;
        memcpy(m + ATEN_TL_ADDRESSES(2, 0) + 8 * t, &pa, 8);
        memcpy(m + ATEN_TL_ADDRESSES(2, 1) + 8 * t, &ga, 8);
        memcpy(m + ATEN_TL_NUMEL(2) + 8 * t, &nt, 8);
        memcpy(m + ATEN_TL_B2T(2) + 2 * t, &bt, 2);
        memcpy(m + ATEN_TL_B2C(2) + 4 * t, &bc, 4);
    }
    assert_true(aten_decode_blocks(&k, params, sizes, 4, 5, &it));
    assert_int_equal(it.nargs, 2);
    assert_int_equal(it.nout, 1);
    assert_int_equal(aten_operand_range(&k, &it, 0).lo, 0x100000);
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x104000 + 64);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x304000 + 64);
    sizes[3] = 8; /* a double scalar: another kernel */
    assert_false(aten_decode_blocks(&k, params, sizes, 4, 3, &it));
    /* a functor reading through a pointer is not decoded */
    assert_false(aten_kernel_parse(FOREACH_SCALAR_TENSOR, &k));
}

/* _foreach_div_(list, [scalars]) of bf16: TensorListScalarListMetadata<float,
 * 1> (addresses, numel, scalars, block_to_tensor, block_to_chunk). */
static unsigned char meta_sl[ATEN_SL_BYTES(1, 4)];

static void test_multi_tensor_scalar_list(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    unsigned char *m = meta_sl, f = 0, op = 0;
    memset(m, 0xA5, sizeof meta_sl);
    uint64_t p0 = 0x100000, p1 = 0x200000;
    int64_t n0 = 40, n1 = 63;
    memcpy(m + ATEN_SL_ADDRESSES(1, 0), &p0, 8);
    memcpy(m + ATEN_SL_ADDRESSES(1, 0) + 8, &p1, 8);
    memcpy(m + ATEN_SL_NUMEL(1), &n0, 8);
    memcpy(m + ATEN_SL_NUMEL(1) + 8, &n1, 8);
    const uint16_t b2t[2] = { 0, 1 };
    const int32_t b2c[2] = { 0, 0 };
    memcpy(m + ATEN_SL_B2T(1, 4), b2t, sizeof b2t);
    memcpy(m + ATEN_SL_B2C(1, 4), b2c, sizeof b2c);
    void *params[3] = { m, &f, &op };
    size_t sizes[3] = { sizeof meta_sl, 1, 1 };
    assert_true(aten_kernel_parse(FOREACH_DIV_LIST, &k));
    assert_int_equal(k.family, ATEN_FAM_MULTI_TENSOR);
    assert_int_equal(k.list_scalar, 4);
    assert_int_equal(k.elem[0], 2);
    assert_true(aten_decode_blocks(&k, params, sizes, 3, 2, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).lo, 0x100000);
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x100000 + 40 * 2);
    assert_int_equal(aten_operand_range(&k, &it, 1).lo, 0x200000);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x200000 + 63 * 2);
    sizes[0] = ATEN_TL_BYTES(1); /* the metadata without scalars: another layout */
    assert_false(aten_decode_blocks(&k, params, sizes, 3, 2, &it));
}

/* Kernels of plain pointers and sizes (kernel_ptr.h), laid out as
 * abi_softmax.h, abi_nll_loss.h and abi_layer_norm.h write them down. */
static void test_pointer_kernels(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    assert_false(aten_kernel_parse(SOFTMAX_MASKED, &k)); /* a mask: not decoded */
    assert_true(aten_kernel_parse(SOFTMAX_FWD, &k));
    assert_int_equal(k.family, ATEN_FAM_POINTERS);
    assert_int_equal(k.nargs, 2);
    assert_int_equal(k.log2_elements, 4);
    uint64_t dst = 0x100000, src = 0x200000, mask = 0;
    int32_t batch = 6, stride = 16, elements = 11, head = 0;
    bool tmask = false;
    void *sp[8] = { &dst, &src, &batch, &stride, &elements, &mask, &head, &tmask };
    size_t ss[8] = { 8, 8, 4, 4, 4, 8, 4, 1 };
    assert_true(aten_decode(&k, sp, ss, 8, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x100000 + (5 * 16 + 11) * 2);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x200000 + (5 * 16 + 11) * 2);
    elements = 17; /* longer than 2^4: another instantiation's rows */
    assert_false(aten_decode(&k, sp, ss, 8, &it));
    elements = 11, mask = 0x300000;
    assert_false(aten_decode(&k, sp, ss, 8, &it));
    mask = 0, ss[7] = 4; /* another layout */
    assert_false(aten_decode(&k, sp, ss, 8, &it));

    assert_true(aten_kernel_parse(NLL_FWD, &k));
    assert_int_equal(k.nargs, 5);
    assert_int_equal(k.nout, 2);
    assert_int_equal(k.elem[3], 8); /* long targets */
    uint64_t out = 0x100000, tw = 0x110000, in = 0x200000, tg = 0x300000, w = 0;
    bool avg = true;
    int64_t nframe = 6, ndim = 11, ncls = 11, ignore = -100;
    void *np[10] = { &out, &tw, &in, &tg, &w, &avg, &nframe, &ndim, &ncls, &ignore };
    size_t ns[10] = { 8, 8, 8, 8, 8, 1, 8, 8, 8, 8 };
    assert_true(aten_decode(&k, np, ns, 10, &it));
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x100000 + 2);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x110000 + 2);
    assert_int_equal(aten_operand_range(&k, &it, 2).hi, 0x200000 + 66 * 2);
    assert_int_equal(aten_operand_range(&k, &it, 3).hi, 0x300000 + 6 * 8);
    assert_int_equal(aten_operand_range(&k, &it, 4).lo, 0x200000); /* no weights: the input again */
    ncls = 12; /* more classes than a row: not decoded */
    assert_false(aten_decode(&k, np, ns, 10, &it));

    assert_true(aten_kernel_parse(LAYER_NORM, &k));
    assert_int_equal(k.nargs, 6);
    assert_int_equal(k.nout, 3);
    int32_t n = 48;
    float eps = 1e-5f;
    uint64_t x = 0x100000, g = 0, b = 0x110000, mean = 0x120000, rstd = 0x130000, y = 0x140000;
    void *lp[8] = { &n, &eps, &x, &g, &b, &mean, &rstd, &y };
    size_t ls[8] = { 4, 4, 8, 8, 8, 8, 8, 8 };
    assert_true(aten_decode_blocks(&k, lp, ls, 8, 6, &it)); /* 6 rows: the grid */
    assert_int_equal(aten_operand_range(&k, &it, 0).hi, 0x140000 + 6 * 48 * 2);
    assert_int_equal(aten_operand_range(&k, &it, 1).hi, 0x120000 + 6 * 4);
    assert_int_equal(aten_operand_range(&k, &it, 5).hi, 0x110000 + 48 * 2);
    assert_false(aten_decode(&k, lp, ls, 8, &it)); /* rows unknown */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_names),   cmocka_unit_test(test_transpose_2d),
        cmocka_unit_test(test_transpose_batched), cmocka_unit_test(test_not_transposes),
        cmocka_unit_test(test_gappy_output),  cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_vectorized),    cmocka_unit_test(test_unrolled_cast),
        cmocka_unit_test(test_unrolled_strided), cmocka_unit_test(test_random),
        cmocka_unit_test(test_reduce),        cmocka_unit_test(test_reduce_two_outputs),        cmocka_unit_test(test_legacy_cast),
        cmocka_unit_test(test_dropout),       cmocka_unit_test(test_multi_tensor),
        cmocka_unit_test(test_multi_tensor_scalar_list), cmocka_unit_test(test_pointer_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
