/* IMMA orders (tiled.h). Each stores the matrix as panels of 32 columns,
 * panel p starting at p * ld; inside a panel, element (r, c), c < 32:
 *   COL32         r * 32 + c (row after row);
 *   COL4_4R2_8C   tiles of 8 rows (256 elements, tile r / 8 at (r / 8) * 256):
 *                 inner blocks of 4 columns x 4 rows of one parity (16
 *                 elements: c % 4, then (r % 8) / 2), the two 4-column halves
 *                 of 8 columns next, then the four 8-column groups, then the
 *                 odd rows after the even ones;
 *   COL32_2R_4R4  tiles of 32 rows (1024 elements), rows inside a tile in
 *                 the order cublasLt.h gives, (((r % 8) / 2 * 4 + r / 8) * 2
 *                 + r % 2) * 32 + c.
 * COL4_4R2_8C follows cublasLt.h's description ("interleaved inner tiles of 4
 * columns within 4 even or odd rows in an alternating pattern"); the exact
 * order of its 32-element units is not written there and could not be checked
 * on a GPU: the stand-in uses even rows' units first, each unit 8 columns.
 * The reference kernels take strided views, so tiled operands are gathered
 * into dense column-major copies and outputs scattered back. */
#include <stdlib.h>
#include <string.h>

#include "tiled.h"

bool simlt_tiled(const simlt_layout *l)
{
    return l->order == CUBLASLT_ORDER_COL32 || l->order == CUBLASLT_ORDER_COL4_4R2_8C ||
           l->order == CUBLASLT_ORDER_COL32_2R_4R4;
}

/* Rows a panel holds: padded to whole tiles. */
static uint64_t panel_rows(const simlt_layout *l)
{
    uint64_t tile = l->order == CUBLASLT_ORDER_COL4_4R2_8C ? 8 : l->order == CUBLASLT_ORDER_COL32_2R_4R4 ? 32 : 1;
    return (l->rows + tile - 1) / tile * tile;
}

cublasStatus_t simlt_tiled_check(const simlt_layout *l)
{
    bool type_ok = l->type == CUDA_R_8I || (l->type == CUDA_R_32I && l->order == CUBLASLT_ORDER_COL32);
    if (!type_ok || l->batch_mode != CUBLASLT_BATCH_MODE_STRIDED || l->plane_offset != 0)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (l->batch_count < 1 || l->ld < 0 || (uint64_t)l->ld < 32 * (panel_rows(l) ? panel_rows(l) : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

static int64_t in_panel(int32_t order, uint64_t r, uint64_t c)
{
    if (order == CUBLASLT_ORDER_COL32)
        return (int64_t)(r * 32 + c);
    if (order == CUBLASLT_ORDER_COL32_2R_4R4) {
        uint64_t t = r % 32;
        return (int64_t)((r / 32) * 1024 + (((t % 8) / 2 * 4 + t / 8) * 2 + t % 2) * 32 + c);
    }
    uint64_t unit = (r % 2) * 4 + c / 8;               /* 32-element unit: parity, then 8-column group */
    uint64_t inner = ((c % 8) / 4) * 4 + (r % 8) / 2;  /* 4-element row of the unit */
    return (int64_t)((r / 8) * 256 + unit * 32 + inner * 4 + c % 4);
}

int64_t simlt_tiled_offset(const simlt_layout *l, uint64_t r, uint64_t c)
{
    return (int64_t)(c / 32) * l->ld + in_panel(l->order, r, c % 32);
}

int64_t simlt_tiled_extent(const simlt_layout *l)
{
    if (!l->rows || !l->cols)
        return 0;
    int64_t bs = l->batch_offset < 0 ? -l->batch_offset : l->batch_offset;
    int64_t one = (int64_t)((l->cols - 1) / 32) * l->ld + (int64_t)panel_rows(l) * 32;
    return (int64_t)(l->batch_count - 1) * bs + one;
}

/* to_tiled: dense copy -> tiled memory, else tiled -> dense. */
static void convert(const simlt_layout *l, char *tiled, char *dense, bool to_tiled)
{
    size_t es = sim_elem_size((cudaDataType)l->type);
    for (int32_t b = 0; b < l->batch_count; b++)
        for (uint64_t c = 0; c < l->cols; c++)
            for (uint64_t r = 0; r < l->rows; r++) {
                char *t = tiled + (b * l->batch_offset + simlt_tiled_offset(l, r, c)) * (int64_t)es;
                char *d = dense + ((uint64_t)b * l->rows * l->cols + c * l->rows + r) * es;
                memcpy(to_tiled ? t : d, to_tiled ? d : t, es);
            }
}

static void *gather(const simlt_layout *l, const void *base)
{
    size_t n = (size_t)(l->rows * l->cols * (uint64_t)l->batch_count);
    void *copy = malloc(n ? n * sim_elem_size((cudaDataType)l->type) : 1);
    if (copy && base)
        convert(l, (char *)base, copy, false);
    return copy;
}

/* Replaces the base of each tiled operand's view with a dense copy;
 * copy[i] NULL for the others. False when out of memory. */
static bool gather_all(sim_mat *const views[], const simlt_layout *const ls[], int n, void *copy[])
{
    for (int i = 0; i < n; i++)
        if (ls[i] && views[i]->base) {
            copy[i] = gather(ls[i], views[i]->base);
            if (!copy[i])
                return false;
            views[i]->base = copy[i];
        }
    return true;
}

cublasStatus_t simlt_tiled_gemm(sim_gemm *g, const simlt_layout *const ls[4])
{
    sim_mat *views[4] = {&g->a, &g->b, &g->c, &g->d};
    void *out = (void *)g->d.base, *copy[4] = {0};
    cublasStatus_t st = gather_all(views, ls, 4, copy) ? simcublasLt_gemm(g) : CUBLAS_STATUS_ALLOC_FAILED;
    if (st == CUBLAS_STATUS_SUCCESS && copy[3])
        convert(ls[3], out, copy[3], true);
    for (int i = 0; i < 4; i++)
        free(copy[i]);
    return st;
}

cublasStatus_t simlt_tiled_add(sim_add *op, const simlt_layout *const ls[3])
{
    sim_mat *views[3] = {&op->a, &op->b, &op->c};
    void *out = (void *)op->c.base, *copy[3] = {0};
    cublasStatus_t st = gather_all(views, ls, 3, copy) ? simcublasLt_add(op) : CUBLAS_STATUS_ALLOC_FAILED;
    if (st == CUBLAS_STATUS_SUCCESS && copy[2])
        convert(ls[2], out, copy[2], true);
    for (int i = 0; i < 3; i++)
        free(copy[i]);
    return st;
}
