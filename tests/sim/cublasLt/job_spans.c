/* The memory a queued GEMM or add touches, as the race detector takes it
 * (simcuda_span): each operand's rows and columns, or bounds where rows
 * would be too many (enqueue.c hands them to the driver). */
#include "job.h"
#include "scale.h"
#include "tiled.h"

static bool is_zero(const void *p, cudaDataType type, simcuda_is_device_fn is_device)
{
    static const unsigned char zero[16];
    size_t n = sim_elem_size(type);
    return p && n && n <= 16 && !(is_device && is_device(p)) && memcmp(p, zero, n) == 0;
}

/* A rows x cols view, per batch, as spans of bytes (one bounding span
 * when the batch is large). */
static void spans_of(const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write, simcuda_span *out,
                     size_t *n);

/* FP4 packs two elements a byte along the contiguous dimension: the same
 * bytes as an 8-bit view half as long that way. */
static void nibble_spans(const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write, simcuda_span *out,
                         size_t *n)
{
    sim_mat b = {.base = m->base, .type = CUDA_R_8I, .rs = m->rs / 2, .cs = m->cs / 2, .bs = m->bs / 2};
    if (m->rs == 1)
        b.rs = 1, rows = (rows + 1) / 2;
    else
        b.cs = 1, cols = (cols + 1) / 2;
    spans_of(&b, rows, cols, batch, write, out, n);
}

/* A block scale factor array, read or written whole. */
static void bscale_spans(const sim_bscale *sc, int64_t outer, int write, simcuda_span *out, size_t *n)
{
    if (sc->p)
        spans_of(&(sim_mat){.base = sc->p, .type = CUDA_R_8I, .rs = 1}, sim_bscale_bytes(sc, outer), 1, 1,
                 write, out, n);
}

static void spans_of(const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write, simcuda_span *out,
                     size_t *n)
{
    if (m->type == CUDA_R_4F_E2M1 && m->base) {
        nibble_spans(m, rows, cols, batch, write, out, n);
        return;
    }
    size_t es = sim_elem_size(m->type);
    if (!m->base || !es || rows <= 0 || cols <= 0 || batch <= 0 || *n + 2 > MAX_SPANS)
        return;
    int64_t rs = m->rs, cs = m->cs;
    const char *base = m->base;
    if (rs < 0) { base += (rows - 1) * rs * (int64_t)es; rs = -rs; }
    if (cs < 0) { base += (cols - 1) * cs * (int64_t)es; cs = -cs; }
    bool col_major = rs == 1 || (cs != 1 && rs <= cs) || cols == 1;
    size_t width = col_major ? (rows - 1) * rs * es + es : (cols - 1) * cs * es + es;
    size_t pitch = (size_t)(col_major ? cs : rs) * es, count = (size_t)(col_major ? cols : rows);
    if (col_major && rs != 1)
        width = (rows - 1) * rs * es + es; /* a strided vector: its bounding range */
    int64_t per = batch <= 16 && m->bs ? batch : 1;
    for (int64_t b = 0; b < per; b++)
        out[(*n)++] = (simcuda_span){base + b * m->bs * (int64_t)es, width, pitch ? pitch : width, count, write};
    if (per == 1 && batch > 1 && m->bs) /* the rest, as one bound */
        out[(*n)++] = (simcuda_span){base, (size_t)((batch - 1) * m->bs) * es + (count - 1) * pitch + width, 0, 1,
                                     write};
}

/* Operand i of the job (rows x cols of its view): its view's spans, or the
 * whole range an IMMA-ordered layout reaches. */
static void operand_spans(const simlt_job *j, int i, const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write,
                          simcuda_span *s, size_t *n)
{
    if (!j->is_tiled[i]) {
        spans_of(m, rows, cols, batch, write, s, n);
        return;
    }
    int64_t bytes = simlt_tiled_extent(&j->tiled[i]) * (int64_t)sim_elem_size(m->type);
    if (m->base && bytes > 0 && *n < MAX_SPANS)
        s[(*n)++] = (simcuda_span){m->base, (size_t)bytes, (size_t)bytes, 1, write};
}

static void gemm_spans(const simlt_job *j, simcuda_is_device_fn is_device, simcuda_span *s, size_t *n)
{
    const sim_gemm *g = &j->g;
    if (j->narrays || j->any_planar)
        return; /* arrays and planes are read where they point when the work runs */
    operand_spans(j, 0, &g->a, g->m, g->k, g->batch, 0, s, n);
    operand_spans(j, 1, &g->b, g->k, g->n, g->batch, 0, s, n);
    if (!g->beta_zero && !is_zero(g->beta, g->scale, is_device))
        operand_spans(j, 2, &g->c, g->m, g->n, g->batch, 0, s, n);
    operand_spans(j, 3, &g->d, g->m, g->n, g->batch, 1, s, n);
    if (g->bias)
        spans_of(&(sim_mat){.base = g->bias, .type = g->bias_type, .rs = 1, .bs = g->bias_bs}, g->m, 1, g->batch, 0, s, n);
    if (g->aux)
        spans_of(&(sim_mat){.base = g->aux, .type = g->d.type, .rs = 1, .cs = g->aux_ld, .bs = g->aux_bs}, g->m, g->n,
                 g->batch, 1, s, n);
    bscale_spans(&g->a_block, g->m, 0, s, n);
    bscale_spans(&g->b_block, g->n, 0, s, n);
    bscale_spans(&g->d_out, g->n, 1, s, n);
}

static void add_spans(const simlt_job *j, simcuda_is_device_fn is_device, simcuda_span *s, size_t *n)
{
    const sim_add *a = &j->a;
    if (!is_zero(a->alpha, a->scale, is_device))
        operand_spans(j, 0, &a->a, a->m, a->n, a->batch, 0, s, n);
    if (!is_zero(a->beta, a->scale, is_device))
        operand_spans(j, 1, &a->b, a->m, a->n, a->batch, 0, s, n);
    operand_spans(j, 2, &a->c, a->m, a->n, a->batch, 1, s, n);
}

void simlt_job_spans(const simlt_job *j, simcuda_is_device_fn is_device, simcuda_span *s, size_t *n)
{
    if (j->is_gemm)
        gemm_spans(j, is_device, s, n);
    else
        add_spans(j, is_device, s, n);
}
