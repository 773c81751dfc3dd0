/* ATen's torch.cat / torch.stack kernel for contiguous inputs, as the
 * pinned PyTorch build launches it. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: cat of [5,7] and [3,7] along dim 0, of
 * [5,7] and [5,2] along dim 1, stack of two [5,7], float) and against
 * aten/src/ATen/native/cuda/Shape.cu.
 *
 *   CatArrayBatchedCopy_alignedK_contig<OpaqueType<S>, IndexType, Dims,
 *       batch_size, stride_size, alignment>(OpaqueType<S> *output,
 *       CatArrInputTensorMetadata<...> inputs,
 *       TensorSizeStride<IndexType, 4> os, int concatDim,
 *       IndexType dimStride)
 *   (and CatArrayBatchedCopy_contig<..., Dims, batch_size, stride_size>
 *   with the same parameters). Elements are copied as S opaque bytes.
 *   CatArrayBatchedCopy_vectorized<OpaqueType<S>, IndexType, Dims,
 *       batch_size, stride_size, alignment, elems_per_vec>(char *output,
 *       inputs, os, int concatDim, IndexType trailingSize)
 *   copies alignment-byte vectors (elems_per_vec elements): os is in
 *   vectors; input i's nElements / elems_per_vec vectors land at
 *   offset * trailingSize / elems_per_vec plus their index's offset,
 *   counted with dimSize * trailingSize / elems_per_vec along concatDim.
 *   CatArrayBatchedCopy<T, IndexType, Dims, 64, 64>(T *output, inputs, os,
 *       int concatDim, IndexType dimStride): as the contiguous kernel, but
 *       an input whose isContiguous is false is read through its own
 *       tensorStride[i] (sizes and strides, dimSize along concatDim).
 *   Measured: cat of [3,4] and [3,8] floats along dim 1 (Dims 2, os {3, 3;
 *   3, 1}, trailing 1) and of [3,4] and [2,4] along dim 0 (Dims 1, os {5,
 *   4; 1, 1}, trailing 4).
 * gridDim.y is the number of inputs in this batch; input i's nElements
 * contiguous elements land at offset[i] * dimStride plus the offset of
 * their index in the output, counted with input i's dimSize along
 * concatDim and the output's sizes elsewhere (dimension Dims-1 fastest).
 *
 * CatArrInputTensorMetadata<T, uint32_t, batch_size = 128, stride_size>:
 *   const T *input[128]; uint32_t offset[128], dimSize[128],
 *   nElements[128]; bool isContiguous[128];
 *   TensorSizeStride<uint32_t, 4> tensorStride[stride_size];
 * TensorSizeStride<uint32_t, 4>: uint32_t tensorSize[4], tensorStride[4]
 * (elements). Measured: inputs at 0, offset at 1024 ({0, 5} for dim 0),
 * dimSize at 1536 ({5, 3}), nElements at 2048 ({35, 21}); os {8, 7, -, -,
 * 7, 1, -, -} for the [8, 7] output. */
#ifndef TF_ATEN_ABI_CAT_H
#define TF_ATEN_ABI_CAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"

/* Offsets in CatArrInputTensorMetadata<T, uint32_t, b, stride_size>; the
 * contiguous kernels use b = 128, the strided one (non-contiguous inputs)
 * b = 64 with stride_size 64 (one TensorSizeStride an input). */
#define ATEN_CAT_BATCH 128u
#define ATEN_CAT_MAX_DIMS 4u
#define ATEN_CAT_INPUT 0u
#define ATEN_CAT_OFFSET_B(b) (8u * (b))
#define ATEN_CAT_DIM_SIZE_B(b) (12u * (b))
#define ATEN_CAT_NELEMENTS_B(b) (16u * (b))
#define ATEN_CAT_IS_CONTIGUOUS_B(b) (20u * (b))
#define ATEN_CAT_TENSOR_STRIDE_B(b) ATEN_ALIGN(21u * (b), 4u)
#define ATEN_CAT_SIZE_STRIDE_BYTES (8u * ATEN_CAT_MAX_DIMS)
#define ATEN_CAT_META_BYTES_B(b, stride_size) \
    ATEN_ALIGN(ATEN_CAT_TENSOR_STRIDE_B(b) + ATEN_CAT_SIZE_STRIDE_BYTES * (stride_size), 8u)
#define ATEN_CAT_OFFSET ATEN_CAT_OFFSET_B(ATEN_CAT_BATCH)
#define ATEN_CAT_DIM_SIZE ATEN_CAT_DIM_SIZE_B(ATEN_CAT_BATCH)
#define ATEN_CAT_NELEMENTS ATEN_CAT_NELEMENTS_B(ATEN_CAT_BATCH)
#define ATEN_CAT_META_BYTES(stride_size) ATEN_CAT_META_BYTES_B(ATEN_CAT_BATCH, stride_size)
_Static_assert(ATEN_CAT_OFFSET == 1024 && ATEN_CAT_DIM_SIZE == 1536 && ATEN_CAT_NELEMENTS == 2048,
               "CatArrInputTensorMetadata<T, uint32_t, 128, 1> (measured)");

/* TensorSizeStride<uint32_t, 4> */
#define ATEN_CAT_OS_SIZE 0u
#define ATEN_CAT_OS_STRIDE (4u * ATEN_CAT_MAX_DIMS)

/* The last parameter is dimStride, or trailingSize for the vectorized kernel. */
enum { ATEN_CAT_P_OUTPUT, ATEN_CAT_P_INPUTS, ATEN_CAT_P_OS, ATEN_CAT_P_CONCAT_DIM, ATEN_CAT_P_DIM_STRIDE, ATEN_CAT_NPARAMS };
#define ATEN_CAT_P_TRAILING ATEN_CAT_P_DIM_STRIDE

/* Below: the layout read, shared by the stand-in's twin (which copies what
 * it says) and the preload's decoder (which turns it into byte ranges), so
 * that both read one model of the kernels. Pure C over bytes. */

typedef enum aten_cat_kind {
    ATEN_CAT_CONTIG,     /* CatArrayBatchedCopy_contig */
    ATEN_CAT_ALIGNED,    /* CatArrayBatchedCopy_alignedK_contig */
    ATEN_CAT_VECTORIZED, /* CatArrayBatchedCopy_vectorized */
    ATEN_CAT_STRIDED,    /* CatArrayBatchedCopy: inputs maybe not contiguous */
} aten_cat_kind;

typedef struct aten_cat {
    aten_cat_kind kind;
    unsigned elem;        /* OpaqueType<elem>: bytes an element */
    unsigned dims;        /* Dims, 1..4 */
    unsigned batch;       /* inputs a metadata block: 128, or 64 (strided) */
    unsigned stride_size; /* TensorSizeStride slots: 1, or 64 (one an input) */
    unsigned alignment;   /* aligned, vectorized: bytes a vector (else 0) */
    unsigned per_vec;     /* vectorized: elements a vector (else 1) */
} aten_cat;

/* One decimal template argument ("16u" too) ending in `end`. */
static inline bool aten_cat_num(const char **s, long *v, char end)
{
    const char *p = *s;
    while (*p == ' ')
        p++;
    long x = 0;
    const char *digits = p;
    while (*p >= '0' && *p <= '9' && x < 100000)
        x = x * 10 + (*p++ - '0');
    if (p == digits)
        return false;
    if (*p == 'u')
        p++;
    if (*p != end)
        return false;
    *s = p + 1;
    *v = x;
    return true;
}

/* The instantiation a demangled name is, when it is one torch 2.15.0 has:
 * OpaqueType<1, 2, 4, 8, 16>, unsigned int, Dims 1..4; contig and
 * alignedK_contig (alignment 8, 16) with 128 inputs and one stride slot;
 * vectorized with 16-byte vectors; the strided one with 64 and 64. */
static inline bool aten_cat_parse(const char *demangled, aten_cat *c)
{
    static const char base[] = "at::native::(anonymous namespace)::CatArrayBatchedCopy";
    static const char opaque[] = "at::native::(anonymous namespace)::OpaqueType<";
    static const struct { const char *tail; aten_cat_kind kind; int nargs; } forms[] = {
        { "_alignedK_contig<", ATEN_CAT_ALIGNED, 6 }, { "_vectorized<", ATEN_CAT_VECTORIZED, 7 },
        { "_contig<", ATEN_CAT_CONTIG, 5 }, { "<", ATEN_CAT_STRIDED, 5 },
    };
    const char *s = demangled ? strstr(demangled, base) : NULL;
    if (!s)
        return false;
    s += sizeof base - 1;
    int f = 0;
    while (f < 4 && strncmp(s, forms[f].tail, strlen(forms[f].tail)) != 0)
        f++;
    if (f == 4)
        return false;
    s += strlen(forms[f].tail);
    long v[7] = { 0 };
    if (strncmp(s, opaque, sizeof opaque - 1) != 0)
        return false;
    s += sizeof opaque - 1;
    if (!aten_cat_num(&s, &v[0], '>') || strncmp(s, ", unsigned int,", 15) != 0)
        return false;
    s += 15;
    for (int i = 2; i < forms[f].nargs; i++)
        if (!aten_cat_num(&s, &v[i], i + 1 < forms[f].nargs ? ',' : '>'))
            return false;
    bool strided = forms[f].kind == ATEN_CAT_STRIDED;
    *c = (aten_cat){ forms[f].kind, (unsigned)v[0], (unsigned)v[2], (unsigned)v[3], (unsigned)v[4], (unsigned)v[5], 1 };
    if (c->kind == ATEN_CAT_VECTORIZED)
        c->per_vec = (unsigned)v[6];
    bool elem = c->elem == 1 || c->elem == 2 || c->elem == 4 || c->elem == 8 || c->elem == 16;
    bool slots = strided ? c->batch == 64 && c->stride_size == 64 : c->batch == ATEN_CAT_BATCH && c->stride_size == 1;
    bool vec = c->kind == ATEN_CAT_ALIGNED    ? c->alignment == 8 || c->alignment == 16
               : c->kind == ATEN_CAT_VECTORIZED ? c->alignment == 16 && c->per_vec * c->elem == 16
                                                : true;
    return elem && slots && vec && c->dims >= 1 && c->dims <= ATEN_CAT_MAX_DIMS;
}

static inline uint32_t aten_cat_u32(const void *base, size_t off)
{
    uint32_t v;
    memcpy(&v, (const unsigned char *)base + off, 4);
    return v;
}

/* Input i of a CatArrInputTensorMetadata, as the kernel reads it. */
typedef struct aten_cat_input {
    uint64_t data;
    uint32_t offset, dim_size, n; /* elements */
    const unsigned char *ss;      /* its TensorSizeStride when read through it (else NULL) */
} aten_cat_input;

static inline void aten_cat_input_at(const aten_cat *c, const void *meta, unsigned i, aten_cat_input *in)
{
    const unsigned char *m = meta;
    memcpy(&in->data, m + ATEN_CAT_INPUT + 8 * (size_t)i, 8);
    in->offset = aten_cat_u32(m, ATEN_CAT_OFFSET_B(c->batch) + 4 * (size_t)i);
    in->dim_size = aten_cat_u32(m, ATEN_CAT_DIM_SIZE_B(c->batch) + 4 * (size_t)i);
    in->n = aten_cat_u32(m, ATEN_CAT_NELEMENTS_B(c->batch) + 4 * (size_t)i);
    unsigned slot = c->stride_size > 1 ? i : 0;
    bool contiguous = c->kind != ATEN_CAT_STRIDED || m[ATEN_CAT_IS_CONTIGUOUS_B(c->batch) + i];
    in->ss = contiguous ? NULL : m + ATEN_CAT_TENSOR_STRIDE_B(c->batch) + ATEN_CAT_SIZE_STRIDE_BYTES * (size_t)slot;
}

/* Where an input lands in the kernel's units (vectorized: vectors of
 * per_vec elements, else elements), with `last` the launch's dimStride
 * or trailingSize: its first unit, its size along concatDim and its
 * count, in the kernel's 32-bit arithmetic (the vectorized kernel
 * multiplies by trailingSize before it divides: both wrap as there). A
 * decoder checks the products itself. */
typedef struct aten_cat_place { uint32_t base, dim_size, n; } aten_cat_place;

static inline aten_cat_place aten_cat_place_of(const aten_cat *c, const aten_cat_input *in, uint32_t last)
{
    if (c->kind == ATEN_CAT_VECTORIZED)
        return (aten_cat_place){ in->offset * last / c->per_vec, in->dim_size * last / c->per_vec, in->n / c->per_vec };
    return (aten_cat_place){ in->offset * last, in->dim_size, in->n };
}

/* CatArrIndexToOffset: the offset (units) of linear index idx over the
 * TensorSizeStride at ss, dim_size along concat, dimension dims-1
 * fastest. In 64 bits (the kernel's 32 are the low half). */
static inline uint64_t aten_cat_index_offset(const unsigned char *ss, unsigned dims, uint32_t dim_size, int concat,
                                             uint32_t idx)
{
    uint64_t off = 0;
    for (int d = (int)dims - 1; d >= 1; d--) {
        uint32_t size = d == concat ? dim_size : aten_cat_u32(ss, ATEN_CAT_OS_SIZE + 4 * (unsigned)d);
        if (!size)
            return off;
        uint32_t next = idx / size;
        off += (uint64_t)(idx - next * size) * aten_cat_u32(ss, ATEN_CAT_OS_STRIDE + 4 * (unsigned)d);
        idx = next;
    }
    return off + (uint64_t)idx * aten_cat_u32(ss, ATEN_CAT_OS_STRIDE);
}

#endif
