/* Which ATen kernel a launch is, from its demangled name alone: the
 * TensorIterator family (how its parameters are laid out), how many
 * operands it has (output first), each operand's element size where the
 * name proves it, and whether it is a plain copy (output = input, same
 * type), which is what a transposing `.contiguous()` launches.
 *
 * Pure C over strings: no CUDA, no demangler (the caller demangles once
 * per kernel). Checked on torch 2.15.0's names (abi.h). Anything this does
 * not recognise is family ATEN_FAM_NONE and stays unknown work. */
#ifndef TF_ATEN_KERNEL_H
#define TF_ATEN_KERNEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aten/abi_cat.h"
#include "aten/abi_tiled.h"

#define ATEN_MAX_ARGS 8 /* output + inputs decoded; more is unknown work */
/* The largest element ATen's TensorIterator moves (complex<double>): the
 * bound used where a name does not prove an operand's size. */
#define ATEN_MAX_ELEM 16u

typedef enum aten_family {
    ATEN_FAM_NONE,
    ATEN_FAM_LEGACY,     /* elementwise_kernel<nt, vt, gpu_kernel_impl_nocast closure>(int N, closure) */
    ATEN_FAM_VECTORIZED, /* vectorized_elementwise_kernel<vec, functor, std::array<char*,K>...>(int N, f, data) */
    ATEN_FAM_UNROLLED,   /* unrolled_elementwise_kernel<F, data, vt, inp_calc, out_calc, loader, storer>(...) */
    ATEN_FAM_RANDOM,     /* distribution_elementwise_grid_stride_kernel<...>(int64 numel, philox, dist, transform) */
    ATEN_FAM_DROPOUT,    /* fused_dropout_kernel[_vec]<scalar, acc, uint32, ADims, BDims|VEC, mask>(a, b, c, n, p, philox) */
    ATEN_FAM_MULTI_TENSOR, /* multi_tensor_apply_kernel<TensorListMetadata<d>, foreach functor, op[, opmath]> */
    ATEN_FAM_REDUCE,     /* reduce_kernel<nt, ovec, ReduceOp<scalar, ops_t, uint32, out, ...>>(op) */
    ATEN_FAM_TILED,      /* transpose_copy_tiled_kernel<T, vec, access, tile, grid_stride>(src, dst, w, h, sp, dp) */
    ATEN_FAM_POINTERS,   /* plain pointers and sizes (kernel_ptr.h): softmax_warp_*, nll_loss_*_2d, layer norm */
    ATEN_FAM_CAT,        /* CatArrayBatchedCopy[_contig|_alignedK_contig|_vectorized]<...>(out, inputs, os, dim, last) (cat.h) */
} aten_family;

/* The pointer-argument kernels (ATEN_FAM_POINTERS), by k->kind. */
typedef enum aten_ptr_kind {
    ATEN_PTR_NONE,
    ATEN_PTR_SOFTMAX_FWD, /* softmax_warp_forward: [dst, src] */
    ATEN_PTR_SOFTMAX_BWD, /* softmax_warp_backward: [grad_input, grad, output] */
    ATEN_PTR_NLL_FWD,     /* nll_loss_forward_reduce_cuda_kernel_2d: [output, total_weight, input, target, weights] */
    ATEN_PTR_NLL_BWD,     /* nll_loss_backward_reduce_cuda_kernel_2d: [grad_input, grad_output, target, weights, total_weight] */
    ATEN_PTR_LAYER_NORM,  /* vectorized_layer_norm_kernel: [Y, mean, rstd, X, gamma, beta] */
} aten_ptr_kind;

typedef struct aten_kernel {
    aten_family family;
    int nargs;                    /* K: operand 0 is the output */
    int nout;                     /* operands written (0 taken as 1): the first nout */
    uint32_t elem[ATEN_MAX_ARGS]; /* bytes per element: exact, or an upper bound */
    bool exact[ATEN_MAX_ARGS];    /* elem[k] is the operand's size, not a bound */
    bool copy;                    /* out[i] = in[i], same type, bit for bit */
    int vt, vec;                  /* legacy, unrolled: items a thread; vectorized: vector width */
    bool cast;                    /* unrolled: LoadWithCast/StoreWithCast (sizes from the launch) */
    bool trivial;                 /* unrolled: TrivialOffsetCalculator (else OffsetCalculator) */
    int depth, res;               /* multi-tensor: lists, the one written */
    uint32_t list_scalar;         /* multi-tensor: TensorListScalarListMetadata's scalar size (0: TensorListMetadata) */
    int adims, bdims;             /* dropout: TensorInfo dims the template fixes (-1 any; vec: bdims 0) */
    uint32_t arg_size;            /* reduce: arg_t's size (the identity); dropout, foreach: the scalar's */
    uint32_t arg_align;           /* reduce: arg_t's alignment */
    uint32_t ops_size;            /* reduce: sizeof(ops_t) (an empty one: 1) */
    bool strided;                 /* random: the OffsetCalculator<1> closure (#2), else the 1-d one (#1) */
    aten_tiled tiled;             /* tiled: the instantiation (abi_tiled.h) */
    aten_cat cat;                 /* cat: the instantiation (abi_cat.h) */
    aten_ptr_kind kind;           /* pointers: which kernel */
    int log2_elements;            /* pointers: softmax_warp's rows are at most 2^log2_elements long */
    char op[40];                  /* "direct_copy", "CUDAFunctor_add", "gelu", ... */
    const char *dtype;            /* the output's short type name ("bf16"), or "?" */
} aten_kernel;

/* False (k->family ATEN_FAM_NONE) for anything not recognised. */
bool aten_kernel_parse(const char *demangled, aten_kernel *k);

/* An ATen type name ("c10::BFloat16", "float") as bytes and a short name
 * ("bf16", "f32"); 0 when unknown. */
uint32_t aten_type_size(const char *name, size_t len, const char **short_name);

/* "at::native direct_copy (bf16)": the kernel in PyTorch's words. */
void aten_kernel_label(const aten_kernel *k, char *out, size_t cap);

#endif
