/* C = alpha*op(A) + beta*op(B) as a transpose producer: cublasXgeam and
 * cublasLtMatrixTransform both compute it, and both ask this one function
 * whether a call is a transpose, of which operand, and why it cannot be
 * deferred. The hooks work out the API-specific parts (which operand lands
 * in C transposed, which scale is a known 0) and describe the producer
 * with the operand and scale chosen here. */
#ifndef TF_SUM_H
#define TF_SUM_H
#include <stdbool.h>

enum { TF_SUM_A, TF_SUM_B };

typedef struct tf_sum_term {
    bool given;       /* the operand was passed (cuBLASLt may omit B) */
    bool transposes;  /* given, and it lands in C transposed */
    bool zero;        /* its scale is 0 (meaningful only when host) */
    bool converts;    /* its element type is not C's */
} tf_sum_term;

typedef struct tf_sum {
    tf_sum_term term[2];  /* A with alpha, B with beta */
    bool host;            /* alpha and beta were readable on the host */
    bool stream_usable;   /* the call's stream can be ordered against */
} tf_sum;

typedef struct tf_sum_plan {
    bool transpose;       /* one operand lands in C transposed */
    int src;              /* that operand (TF_SUM_A or TF_SUM_B); its scale scales the transpose */
    bool read[2];         /* operand read: given and its scale not a known 0 */
    const char *refuse;   /* why a transpose cannot be deferred, or NULL */
} tf_sum_plan;

/* The source is A when A transposes, unless B transposes too and only B
 * contributes. In place (C overlapping the source) is left to
 * tf_transpose_begin, which sees the views. */
tf_sum_plan tf_sum_classify(const tf_sum *s);

#endif
