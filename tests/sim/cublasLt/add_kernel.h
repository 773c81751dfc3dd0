/* Element-wise C = alpha*op(A) + beta*op(B): a template (no include
 * guard) that add_ref.c instantiates through kernel_widths.h once per scale
 * width (KT float or double, KSUF f32/f64, names KFN/KLOAD/KSTORE). A term
 * whose scalar is 0 is left out rather than added as 0, and a term starts
 * from -0, the one zero that adds exactly (-0 + x is x, -0 included; +0 +
 * -0 is +0), so alpha*A alone is exact (a plain transpose keeps -0 and
 * payloads) and an unread operand may be NULL. */

/* t += s * x(i, j) of batch bt; x's conj flag applies. */
static void KFN(axpy_)(const sim_mat *x, const KT s[2], int64_t bt, int64_t i, int64_t j, int cw, KT t[2])
{
    KT v[2];
    KLOAD(x->type, x->base, bt * x->bs + i * x->rs + j * x->cs, v);
    if (x->conj)
        v[1] = -v[1];
    if (cw == 1) {
        t[0] += s[0] * v[0];
    } else {
        t[0] += s[0] * v[0] - s[1] * v[1];
        t[1] += s[0] * v[1] + s[1] * v[0];
    }
}

/* Cannot fail; returns a status to share the GEMM's entry, and stays out of
 * line for the same reason (SIM_KERNEL_ENTRY, kernel_widths.h). */
__attribute__((noinline)) static cublasStatus_t KFN(add_)(const sim_add *op, int cw)
{
    KT al[2], be[2];
    KLOAD(op->scale, op->alpha, 0, al);
    KLOAD(op->scale, op->beta, 0, be);
    bool use_a = op->a.base && (al[0] != 0 || al[1] != 0);
    bool use_b = op->b.base && (be[0] != 0 || be[1] != 0);
    for (int64_t bt = 0; bt < op->batch; bt++)
        for (int64_t j = 0; j < op->n; j++)
            for (int64_t i = 0; i < op->m; i++) {
                KT t[2] = {0, 0};
                if (use_a) {
                    t[0] = t[1] = -(KT)0;
                    KFN(axpy_)(&op->a, al, bt, i, j, cw, t);
                }
                if (use_b) {
                    KT u[2] = {-(KT)0, -(KT)0};
                    KFN(axpy_)(&op->b, be, bt, i, j, cw, u);
                    if (use_a) {
                        t[0] += u[0];
                        t[1] += u[1];
                    } else {
                        t[0] = u[0];
                        t[1] = u[1];
                    }
                }
                KSTORE(op->c.type, (void *)op->c.base, bt * op->c.bs + i * op->c.rs + j * op->c.cs, t);
            }
    return CUBLAS_STATUS_SUCCESS;
}
