/* ATen kernels whose parameters are plain pointers and sizes, not a
 * TensorIterator closure (family ATEN_FAM_POINTERS): their names
 * (kernel_ptr.c) and their launches as byte ranges (decode_ptr.c). The
 * layouts are abi_softmax.h's, abi_nll_loss.h's and abi_layer_norm.h's,
 * checked on torch 2.15.0. */
#ifndef TF_ATEN_KERNEL_PTR_H
#define TF_ATEN_KERNEL_PTR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aten/decode.h"
#include "aten/kernel.h"
#include "aten/span.h"

/* s: the demangled name without its "void ". False when it is none of
 * them (or one with a mask, rms norm or an unknown type). */
bool aten_parse_ptr_kernel(span s, aten_kernel *k);

/* The parameter sizes of k's kind. */
bool aten_ptr_params(const aten_kernel *k, size_t *sizes, int *count);

/* Operands as kernel.h's kinds order them, each one dimension of the
 * elements it can touch (softmax: rows of a stride, two dimensions);
 * blocks: the launch's grid (layer norm's rows). An absent optional
 * input (weights, gamma, beta: null) stands in as the input's range
 * again (read anyway). */
bool aten_decode_ptr(const aten_kernel *k, void *const *p, uint64_t blocks, aten_iter *it);

#endif
