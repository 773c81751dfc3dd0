/* Verify mode (TRANSFOLD_VERIFY=1): compare a folded GEMM's output with the
 * unfolded one computed into scratch memory. Bitwise on the stand-in; on a GPU
 * within a tolerance from the element type and the reduction length k, since
 * a transposed operand may select a different kernel and summation order. */
#ifndef TF_VERIFY_H
#define TF_VERIFY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tf_verify_result {
    bool equal;          /* within tolerance (bitwise when exact) */
    int64_t mismatches;
    int64_t worst_i, worst_j;
    double folded, unfolded; /* the worst pair (real part for complex) */
    double max_err;          /* absolute error of the worst pair */
    double tol;              /* allowed error at that element */
} tf_verify_result;

/* Machine epsilon of a dtype name ("f32", "bf16", "c64", ...); 0 if unknown. */
double tf_dtype_eps(const char *dtype);
/* Element size in bytes of a dtype name; 0 if unknown. */
uint32_t tf_dtype_size(const char *dtype);

/* Compares two column-major rows x cols matrices (ld elements apart). */
void tf_verify_compare(const char *dtype, const void *folded, const void *unfolded, int64_t rows, int64_t cols,
                       int64_t ld, int64_t k, bool exact, tf_verify_result *r);

#endif
