/* cublasLtMatmul as the engine sees it: the call, what its descriptors
 * say (from their shadows), and the engine description built from both. */
#ifndef PL_LT_MATMUL_H
#define PL_LT_MATMUL_H
#include "lt/descriptors.h"
#include "core/state.h"

enum { LT_A, LT_B, LT_C, LT_D };

typedef struct lt_matmul_call {
    cublasLtHandle_t handle;
    cublasLtMatmulDesc_t desc;
    const void *alpha, *beta;
    const void *ptr[4];              /* A, B, C, D */
    cublasLtMatrixLayout_t lay[4];
    const cublasLtMatmulAlgo_t *algo;
    void *workspace;
    size_t workspace_size;
    cudaStream_t stream;
} lt_matmul_call;

/* How C's contribution is decided per call (beta_zero in matmul_describe.c). */
typedef enum lt_beta_rule {
    LT_BETA_READ_C,  /* C is read: beta behind a device pointer, or of a type transfold cannot test */
    LT_BETA_ZERO,    /* the pointer mode says beta is 0: C is not read */
    LT_BETA_HOST,    /* beta in host memory: C is read unless it holds 0 */
} lt_beta_rule;

/* The engine description of a call with these descriptors, its pointers
 * left out: views at address 0 and the side accesses fixed by descriptor
 * attributes, decoded once per snapshot so a steady-state call only places
 * its pointers (lt_matmul_describe). */
typedef struct lt_matmul_form {
    bool shaped;                     /* the layouts' shapes agree; else cuBLASLt rejects the call */
    bool empty;                      /* no output: D has no rows, columns or batches */
    int64_t m, n, k;
    const char *dtype;
    bool alpha_host;
    int nin;
    tf_operand in[2];                /* A and B, views at address 0 */
    tf_view d;                       /* D, at address 0 */
    uint64_t c_bytes;                /* length of C's footprint */
    lt_beta_rule beta;
    uint32_t beta_size;              /* bytes of beta (LT_BETA_HOST) */
    bool read_alpha, read_beta;      /* behind device pointers: this many bytes at each */
    uint64_t alpha_bytes, beta_bytes;
    tf_access side_pre, side_post;   /* bias and aux; FP8 scales and amax (when side_pointers) */
} lt_matmul_form;

typedef struct lt_matmul_shadow {
    lt_attrs desc;
    lt_attrs lay[4];
    lt_layout l[4];
    cublasOperation_t op[2];         /* TRANSA, TRANSB */
    pl_stype stype;                  /* of alpha and beta */
    int32_t pointer_mode;
    uint32_t epilogue;
    bool complex_type;
    int32_t scale_mode[2];           /* A_SCALE_MODE, B_SCALE_MODE */
    bool side_pointers;              /* any epilogue or scale pointer set (matmul_describe.c) */
    uint64_t snapshot;               /* unique to this decoding (lt_matmul_describe) */
    lt_matmul_form form;
} lt_matmul_shadow;

typedef enum lt_described {
    LT_DESCRIBED,
    LT_INVALID,  /* cuBLASLt rejects it before touching memory: pass it through */
    LT_UNKNOWN,  /* a descriptor or layout transfold cannot read */
} lt_described;

/* Points *s at the descriptors' decoded shadows and *g at the engine
 * description of the call, both this thread's until its next call (hooks
 * called inside it pass through, so nothing describes another call on
 * this thread meanwhile). */
lt_described lt_matmul_describe(const lt_matmul_call *c, const lt_matmul_shadow **s, const tf_gemm **g);

/* Whether a descriptor attribute is an epilogue or FP8 pointer that is
 * set (matmul_side.c): decoded once per snapshot, so that most calls skip
 * the side accesses. */
bool lt_matmul_side_pointer(const lt_attr *a);
/* The form's side accesses and device scalar sizes, once per snapshot. */
void lt_matmul_side_form(lt_matmul_shadow *s);

/* The call as it stands, as the program's own (depth raised). Inline, so
 * that the modules running it (the hook, verify) need nothing of each
 * other's. */
static inline cublasStatus_t lt_matmul_invoke(const lt_matmul_call *c)
{
    return TF_PASS(TF_REAL(cublasLtMatmul)(c->handle, c->desc, c->alpha, c->ptr[LT_A], c->lay[LT_A],
                                           c->ptr[LT_B], c->lay[LT_B], c->beta, c->ptr[LT_C], c->lay[LT_C],
                                           (void *)(uintptr_t)c->ptr[LT_D], c->lay[LT_D], c->algo,
                                           c->workspace, c->workspace_size, c->stream));
}

/* Verify mode for folded cublasLtMatmul calls (matmul.c). */
/* Verify mode around a folded call: a snapshot of D before it (NULL when
 * verify is off), the unfolded call and comparison after it. */
void *lt_matmul_verify_begin(const tf_gemm *g);
void lt_matmul_verify_end(const lt_matmul_call *c, const lt_matmul_shadow *s, const tf_gemm *g,
                          const tf_plan *plan, void *snapshot, bool ran);

#endif
