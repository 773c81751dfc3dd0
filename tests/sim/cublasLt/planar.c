/* Planar complex operands of cublasLtMatmul (CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET
 * != 0): the real parts of a matrix in one plane, the imaginary parts
 * plane_offset bytes further, element (r, c) of batch b at the same index
 * b * batch_offset + r + c * ld (col order) in both, batch_offset counted in
 * real sub-elements as cublasLt.h documents. The stand-in's GEMM reads
 * interleaved complex data, so each planar operand is gathered into an
 * interleaved copy with the same indexing, and D is scattered back. */
#include <stdlib.h>
#include <string.h>

#include "planar.h"

bool simlt_planar(const simlt_layout *l) { return l->plane_offset != 0; }

/* Elements from index 0 to the last one the layout reaches. */
static size_t extent(const simlt_layout *l)
{
    uint64_t lines = l->order == CUBLASLT_ORDER_COL ? l->cols : l->rows;
    uint64_t line = l->order == CUBLASLT_ORDER_COL ? l->rows : l->cols;
    if (!lines || !line)
        return 0;
    int64_t bs = l->batch_offset < 0 ? -l->batch_offset : l->batch_offset;
    return (size_t)((uint64_t)(l->batch_count - 1) * (uint64_t)bs + (lines - 1) * (uint64_t)l->ld + line);
}

/* to_planar: interleaved -> planar, else planar -> interleaved. */
static void convert(const simlt_layout *l, char *planar, char *inter, size_t n, bool to_planar)
{
    size_t part = sim_elem_size((cudaDataType)l->type) / 2;
    for (size_t e = 0; e < n; e++)
        for (size_t im = 0; im < 2; im++) {
            char *p = planar + (im ? l->plane_offset : 0) + e * part, *q = inter + (2 * e + im) * part;
            memcpy(to_planar ? p : q, to_planar ? q : p, part);
        }
}

void *simlt_planar_gather(const simlt_layout *l, const void *base)
{
    size_t n = extent(l);
    void *copy = malloc(n ? n * sim_elem_size((cudaDataType)l->type) : 1);
    if (copy)
        convert(l, (char *)base, copy, n, false);
    return copy;
}

void simlt_planar_scatter(const simlt_layout *l, const void *copy, void *base)
{
    convert(l, base, (char *)copy, extent(l), true);
}

cublasStatus_t simlt_planar_gemm(sim_gemm *g, const simlt_layout *const ls[4])
{
    sim_mat *views[4] = {&g->a, &g->b, &g->c, &g->d};
    void *keep_d = (void *)g->d.base;
    void *copy[4] = {0};
    bool ok = true;
    for (int i = 0; i < 4 && ok; i++)
        if (ls[i]) {
            copy[i] = simlt_planar_gather(ls[i], views[i]->base);
            ok = copy[i] != NULL;
            views[i]->base = copy[i];
        }
    cublasStatus_t st = ok ? simcublasLt_gemm(g) : CUBLAS_STATUS_ALLOC_FAILED;
    if (st == CUBLAS_STATUS_SUCCESS && copy[3])
        simlt_planar_scatter(ls[3], copy[3], keep_d);
    for (int i = 0; i < 4; i++)
        free(copy[i]);
    return st;
}
