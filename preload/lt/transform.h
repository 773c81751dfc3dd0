/* cublasLtMatrixTransform, C = alpha*op(A) + beta*op(B), as a transpose
 * producer.
 *
 * In column-major views (see descriptors.h) an operand lands in C transposed
 * when an odd number of these hold: it is row-ordered, C is row-ordered,
 * its op transposes. So TRANSA = T with equal orders is a transpose, and so
 * is TRANSA = N from row to column order. It is a pure transpose of A when
 * beta is a known 0 (B is then not read), and of B in the mirror case. */
#ifndef PL_LT_TRANSFORM_H
#define PL_LT_TRANSFORM_H
#include "lt/descriptors.h"
#include "core/state.h"

enum { LT_XA, LT_XB, LT_XC };

typedef struct lt_transform_call {
    cublasLtHandle_t handle;
    cublasLtMatrixTransformDesc_t desc;
    const void *alpha, *beta;
    const void *ptr[3];               /* A, B, C */
    cublasLtMatrixLayout_t lay[3];
    cudaStream_t stream;
} lt_transform_call;

/* What the call is, once its descriptors and scalars are known. */
typedef struct lt_transform {
    lt_layout l[3];
    bool has[2];                      /* operand given (pointer and layout) */
    bool read[2];                     /* and its scalar not a known 0 */
    cublasOperation_t op[2];
    pl_stype stype;
    bool host;
    pl_scalar scalar[2];              /* alpha, beta */
    bool transpose;                   /* one operand lands in C transposed */
    int src;                          /* that operand */
    tf_reason refuse;                 /* why it cannot be deferred */
} lt_transform;

typedef enum lt_transform_kind { LT_X_INVALID, LT_X_UNKNOWN, LT_X_OK } lt_transform_kind;

lt_transform_kind lt_transform_classify(const lt_transform_call *c, lt_transform *x);
/* A replay owning deep copies of the descriptors; run == NULL when they
 * could not be made. */
tf_replay lt_transform_replay(const lt_transform_call *c, const lt_transform *x);
/* The call as it stands, as the program's own (depth raised). Inline, so
 * that the hook and the replay need nothing of each other's. */
static inline cublasStatus_t lt_transform_invoke(const lt_transform_call *c)
{
    return TF_PASS(TF_REAL(cublasLtMatrixTransform)(c->handle, c->desc, c->alpha, c->ptr[LT_XA], c->lay[LT_XA],
                                                    c->beta, c->ptr[LT_XB], c->lay[LT_XB],
                                                    (void *)(uintptr_t)c->ptr[LT_XC], c->lay[LT_XC], c->stream));
}

#endif
