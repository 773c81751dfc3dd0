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
#define REDUCE \
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4, 8> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::BFloat16, 4, 8>)"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_names),   cmocka_unit_test(test_transpose_2d),
        cmocka_unit_test(test_transpose_batched), cmocka_unit_test(test_not_transposes),
        cmocka_unit_test(test_gappy_output),  cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_vectorized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
