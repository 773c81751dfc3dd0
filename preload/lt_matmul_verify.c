/* Verify mode for folded cublasLtMatmul calls: the program's own call,
 * reading replayed copies of the records it would have read and writing
 * the scratch copy of D (see gemm_verify.h). When C is D the scratch copy
 * holds D's old values, so it is C as well. Epilogue outputs (aux, bias
 * gradients) are written a second time, with the same values when the
 * fold is right. */
#include "gemm_verify.h"
#include "lt_matmul_verify.h"

static int unfolded(void *ctx, const pl_relocation *r)
{
    lt_matmul_call b = *(const lt_matmul_call *)ctx;
    for (int i = 0; i < 2; i++)
        b.ptr[i] = pl_relocated(r, i, b.ptr[i]);
    if (b.ptr[LT_C] == b.ptr[LT_D])
        b.ptr[LT_C] = (const void *)(uintptr_t)r->c_to;
    b.ptr[LT_D] = (const void *)(uintptr_t)r->c_to;
    return lt_matmul_invoke(&b);
}

void *lt_matmul_verify_begin(const tf_gemm *g)
{
    return pl_verify_enabled() ? pl_verify_start(g) : NULL;
}

void lt_matmul_verify_end(const lt_matmul_call *c, const lt_matmul_shadow *s, const tf_gemm *g,
                          const tf_plan *plan, void *snapshot, bool ran)
{
    if (!snapshot)
        return;
    if (ran)
        pl_verify_gemm(g, plan, pl_cuda_dtype_name(s->l[LT_D].type), snapshot, unfolded, (void *)c);
    else
        pl_verify_drop(snapshot);
}
