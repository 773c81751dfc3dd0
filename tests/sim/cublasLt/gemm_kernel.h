/* Reference GEMM body: a template (no include guard) that gemm_ref.c
 * instantiates through kernel_widths.h once per accumulator width: KT is
 * float or double, KSUF names the instance (f32/f64), KTANH is tanh for KT.
 * Each operand is first packed into rows of contiguous KT (op, ld, order
 * and conjugation resolved by the view's strides), then every output element
 * is one dot product over l = 0..k-1 in ascending order. Nothing in that
 * loop depends on how an operand was stored, which is what makes a folded
 * and an unfolded GEMM bitwise equal. */

/* out[line][e] = x(line*ls + e*es); cw = 2 components for complex. Block
 * scale factors sc (if any) multiply each element as it is loaded: the
 * products of FP8 or FP4 values and their factors are exact, as in the
 * tensor cores' block-scaled MMA. */
static void KFN(pack_)(const sim_mat *x, int64_t bt, int64_t lines, int64_t len, int64_t ls, int64_t es, int cw,
                       const sim_bscale *sc, KT *out)
{
    int64_t off0 = bt * x->bs;
    for (int64_t ln = 0; ln < lines; ln++) {
        KT *o = out + ln * len * cw;
        for (int64_t e = 0; e < len; e++, o += cw) {
            KT v[2];
            KLOAD(x->type, x->base, off0 + ln * ls + e * es, v);
            if (x->tf32)
                v[0] = (KT)sim_tf32((float)v[0]);
            if (sc->p)
                v[0] *= (KT)sim_bscale_at(sc, ln, e);
            o[0] = v[0];
            if (cw == 2)
                o[1] = x->conj ? -v[1] : v[1];
        }
    }
}

static void KFN(dot_)(const KT *a, const KT *b, int64_t k, int cw, KT s[2])
{
    KT re = 0, im = 0;
    if (cw == 1) {
        for (int64_t l = 0; l < k; l++)
            re += a[l] * b[l];
    } else {
        for (int64_t l = 0; l < k; l++) {
            KT ar = a[2 * l], ai = a[2 * l + 1], br = b[2 * l], bi = b[2 * l + 1];
            re += ar * br - ai * bi;
            im += ar * bi + ai * br;
        }
    }
    s[0] = re;
    s[1] = im;
}

/* Four real dot products at once (rows a, a+k, a+2k, a+3k against b): each
 * sum is formed exactly as in dot_, only interleaved for speed. */
static void KFN(dot4_)(const KT *a, const KT *b, int64_t k, KT s[4])
{
    KT s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const KT *a1 = a + k, *a2 = a + 2 * k, *a3 = a + 3 * k;
    for (int64_t l = 0; l < k; l++) {
        KT bl = b[l];
        s0 += a[l] * bl;
        s1 += a1[l] * bl;
        s2 += a2[l] * bl;
        s3 += a3[l] * bl;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
}

/* t = x * y for real (cw 1) or complex (cw 2) values. */
static void KFN(mul_)(const KT x[2], const KT y[2], int cw, KT t[2])
{
    if (cw == 1) {
        t[0] = x[0] * y[0];
        t[1] = 0;
    } else {
        t[0] = x[0] * y[0] - x[1] * y[1];
        t[1] = x[0] * y[1] + x[1] * y[0];
    }
}

static KT KFN(act_)(sim_act act, KT x)
{
    if (act == SIM_ACT_RELU)
        return x < 0 ? 0 : x;
    if (act == SIM_ACT_GELU) /* the tanh approximation cuBLASLt uses */
        return (KT)0.5 * x * (1 + KTANH((KT)0.7978845608028654 * (x + (KT)0.044715 * x * x * x)));
    return x;
}

/* The product of the FP8 scale factors for one operand pair (1 if unset). */
static KT KFN(scale_)(const float *x, const float *y)
{
    return (KT)(x ? *x : 1.0f) * (KT)(y ? *y : 1.0f);
}

/* Scales the dot product, adds beta*C and the bias, applies the activation
 * and stores D(i, j), or with block-quantized D (g->d_out) leaves it in
 * col[i] for quant_. C is read only when beta != 0. Returns |D(i, j)|
 * before the FP8 D scale, for amax. */
static KT KFN(finish_)(const sim_gemm *g, int64_t bt, int64_t i, int64_t j, const KT acc[2], int cw, KT *col)
{
    KT al[2], be[2], t[2];
    KLOAD(g->scale, g->alpha, g->alpha_vec ? bt * g->alpha_vec_bs + i : 0, al);
    if (g->a_scale || g->b_scale)
        al[0] *= KFN(scale_)(g->a_scale, g->b_scale);
    if (g->a_outer)
        al[0] *= (KT)g->a_outer[i];
    if (g->b_outer)
        al[0] *= (KT)g->b_outer[j];
    KFN(mul_)(al, acc, cw, t);
    if (!g->beta_zero) {
        KLOAD(g->scale, g->beta, g->beta_vec ? i : 0, be);
        if (g->c_scale)
            be[0] *= KFN(scale_)(g->c_scale, NULL);
        if (be[0] != 0 || be[1] != 0) {
            KT c[2], bc[2];
            KLOAD(g->c.type, g->c.base, bt * g->c.bs + i * g->c.rs + j * g->c.cs, c);
            KFN(mul_)(be, c, cw, bc);
            t[0] += bc[0];
            t[1] += bc[1];
        }
    }
    if (g->bias) {
        KT bias[2];
        KLOAD(g->bias_type, g->bias, bt * g->bias_bs + i, bias);
        t[0] += bias[0];
    }
    if (g->aux)
        KSTORE(g->d.type, g->aux, bt * g->aux_bs + i + j * g->aux_ld, t);
    t[0] = KFN(act_)(g->act, t[0]);
    KT mag = t[0] < 0 ? -t[0] : t[0];
    if (g->d_scale)
        t[0] *= KFN(scale_)(g->d_scale, NULL);
    if (col)
        col[i] = t[0];
    else
        KSTORE(g->d.type, (void *)g->d.base, bt * g->d.bs + i * g->d.rs + j * g->d.cs, t);
    return mag;
}

/* Block-quantized D (D_OUT_SCALE): each block of d_out.vec rows of column
 * j gets the smallest factor of the scale type (UE8M0 for 32-row blocks,
 * UE4M3 for 16) that brings its largest magnitude within D's type (448 for
 * E4M3, 57344 for E5M2, 6 for E2M1), written to g->d_out; D is the column
 * divided by its block's factor, rounded to D's type. */
static void KFN(quant_)(const sim_gemm *g, int64_t bt, int64_t j, const KT *col)
{
    cudaDataType dt = g->d.type;
    KT fmax = dt == CUDA_R_8F_E5M2 ? (KT)57344 : dt == CUDA_R_4F_E2M1 ? (KT)6 : (KT)448;
    int vec = g->d_out.vec;
    for (int64_t i0 = 0; i0 < g->m; i0 += vec) {
        int64_t end = i0 + vec < g->m ? i0 + vec : g->m;
        KT amax = 0;
        for (int64_t i = i0; i < end; i++) {
            KT mag = col[i] < 0 ? -col[i] : col[i];
            amax = mag > amax ? mag : amax;
        }
        float want = (float)(amax / fmax);
        uint8_t code = vec == 32 ? sim_ue8m0_ceil(want) : sim_ue4m3_ceil(want);
        ((uint8_t *)(uintptr_t)g->d_out.p)[sim_bscale_index(&g->d_out, j, i0 / vec)] = code;
        KT sf = (KT)(vec == 32 ? sim_ue8m0_to_float(code) : sim_ue4m3_to_float(code));
        for (int64_t i = i0; i < end; i++) {
            KT t[2] = {sf > 0 ? col[i] / sf : 0, 0};
            KSTORE(dt, (void *)g->d.base, bt * g->d.bs + i * g->d.rs + j * g->d.cs, t);
        }
    }
}

/* Column j of D; real rows go four at a time. Returns the column's amax. */
static KT KFN(column_)(const sim_gemm *g, int64_t bt, int64_t j, const KT *ap, const KT *bj, int64_t k, int cw,
                       KT *col)
{
    KT amax = 0;
    int64_t i = 0;
    for (; cw == 1 && i + 4 <= g->m; i += 4) {
        KT s[4];
        KFN(dot4_)(ap + i * k, bj, k, s);
        for (int q = 0; q < 4; q++) {
            KT acc[2] = {s[q], 0};
            KT mag = KFN(finish_)(g, bt, i + q, j, acc, cw, col);
            amax = mag > amax ? mag : amax;
        }
    }
    for (; i < g->m; i++) {
        KT acc[2];
        KFN(dot_)(ap + i * k * cw, bj, k, cw, acc);
        KT mag = KFN(finish_)(g, bt, i, j, acc, cw, col);
        amax = mag > amax ? mag : amax;
    }
    if (col)
        KFN(quant_)(g, bt, j, col);
    return amax;
}

static bool KFN(alpha_zero_)(const sim_gemm *g)
{
    if (g->alpha_vec)
        return false;
    KT al[2];
    KLOAD(g->scale, g->alpha, 0, al);
    return al[0] == 0 && al[1] == 0;
}

/* Out of line: see SIM_KERNEL_ENTRY (kernel_widths.h). */
__attribute__((noinline)) static cublasStatus_t KFN(run_)(const sim_gemm *g, int cw)
{
    /* alpha == 0 means D = beta*C (+ epilogue) without reading A or B. */
    int64_t k = KFN(alpha_zero_)(g) ? 0 : g->k;
    KT *ap = malloc((size_t)(g->m * k * cw + 1) * sizeof(KT));
    KT *bp = malloc((size_t)(g->n * k * cw + 1) * sizeof(KT));
    KT *col = g->d_out.p ? malloc((size_t)g->m * sizeof(KT)) : NULL;
    if (!ap || !bp || (g->d_out.p && !col)) {
        free(ap);
        free(bp);
        free(col);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    KT amax = 0;
    for (int64_t bt = 0; bt < g->batch; bt++) {
        KFN(pack_)(&g->a, bt, g->m, k, g->a.rs, g->a.cs, cw, &g->a_block, ap);
        KFN(pack_)(&g->b, bt, g->n, k, g->b.cs, g->b.rs, cw, &g->b_block, bp);
        for (int64_t j = 0; j < g->n; j++) {
            KT cmax = KFN(column_)(g, bt, j, ap, bp + j * k * cw, k, cw, col);
            amax = cmax > amax ? cmax : amax;
        }
    }
    if (g->amax_d)
        *g->amax_d = (float)amax;
    if (g->scratch) { /* what a split-k GEMM leaves in its workspace, the same for C^T */
        g->scratch[0] = (uint32_t)(g->m + g->n);
        g->scratch[1] = (uint32_t)g->k;
    }
    free(ap);
    free(bp);
    free(col);
    return CUBLAS_STATUS_SUCCESS;
}
