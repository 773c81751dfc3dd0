// Fuzzer generators of issue 10 (included by fuzz.cu, after its helpers):
// cuBLAS's own host<->device copies (cublasSet/GetVector and Set/GetMatrix,
// sync and Async), and device pointer mode scalars that live inside a
// recent transpose's destination or source (a read of it).

// A whole or partial range as a vector (inc 1 or 2) or a matrix (ld = rows
// of a column split); sets fresh values (Set) or reads them back (Get).
static void op_setget(void)
{
    Range r;
    if (!pick_range(r)) return say("setget skipped");
    size_t e = esize(S[r.slot].t);
    char *dev = S[r.slot].p + r.off * e;
    bool get = chance(50), async = chance(30), vec = chance(50) || r.len < 2;
    int inc = vec && r.len >= 2 && chance(30) ? 2 : 1;
    int n = (int)((r.len + (size_t)inc - 1) / (size_t)inc), rows = vec ? 0 : between(1, (int)r.len / 2);
    int cols = vec ? 0 : (int)r.len / rows;
    size_t count = vec ? (size_t)n : (size_t)rows * (size_t)cols;
    char *h = (char *)malloc(count * e * (size_t)inc);
    fresh_values(h, S[r.slot].t, count * (size_t)inc);
    cudaStream_t s = STREAMS[CUR];
    cublasStatus_t st;
    if (vec && get)
        st = async ? cublasGetVectorAsync(n, (int)e, dev, inc, h, inc, s) : cublasGetVector(n, (int)e, dev, inc, h, inc);
    else if (vec)
        st = async ? cublasSetVectorAsync(n, (int)e, h, inc, dev, inc, s) : cublasSetVector(n, (int)e, h, inc, dev, inc);
    else if (get)
        st = async ? cublasGetMatrixAsync(rows, cols, (int)e, dev, rows, h, rows, s)
                   : cublasGetMatrix(rows, cols, (int)e, dev, rows, h, rows);
    else
        st = async ? cublasSetMatrixAsync(rows, cols, (int)e, h, rows, dev, rows, s)
                   : cublasSetMatrix(rows, cols, (int)e, h, rows, dev, rows);
    int st2 = async ? (int)cudaStreamSynchronize(s) : 0;
    unsigned long long hash = 0;
    if (get && st == CUBLAS_STATUS_SUCCESS) { // only the elements copied
        for (size_t i = 0; i < count; i++) hash = hash * 31 + fnv1a(h + i * e * (vec ? (size_t)inc : 1), e);
    }
    say("cublas%s%s%s s%d+%zu %s=%d%s%d -> %d/%d fnv=%016llx", get ? "Get" : "Set", vec ? "Vector" : "Matrix",
        async ? "Async" : "", r.slot, r.off, vec ? "n" : "rows", vec ? n : rows, vec ? " inc=" : " cols=",
        vec ? inc : cols, (int)st, st2, hash);
    free(h);
    if (!get && st == CUBLAS_STATUS_SUCCESS) S[r.slot].b = merge(S[r.slot].b, FRESH);
}

// dst (m x n, fresh place) = alpha * A with alpha read, in device pointer
// mode, from an element of a recent transpose's destination (or source),
// beta = 0 from DSCALARS: a plain geam (op N) that reads the pending buffer.
static void op_devptr_scalar(void)
{
    const Rec *rec = recent();
    if (!rec) return say("devptr scalar skipped");
    const View &from = chance(75) ? rec->dst : rec->src;
    Type t = S[from.slot].t;
    int m = between(1, MAXD), n = between(1, MAXD);
    View a = matrix(m, n), d = matrix(m, n);
    if (!fits(from) || !place(a, t) || !place_clear(d, t, a, from)) return say("devptr scalar skipped");
    size_t at = from.off + (size_t)rnd((int)(extent(from) - from.off));
    const char *alpha = S[from.slot].p + at * esize(t);
    CK(cudaMemset(DSCALARS + 8, 0, 8));
    int hi = rnd(2);
    cublasHandle_t H = HS[hi];
    CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE));
    int st = t == F32 ? (int)cublasSgeam(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, (const float *)alpha, (const float *)addr(a),
                                         a.ld, (const float *)(DSCALARS + 8), (const float *)addr(a), a.ld,
                                         (float *)addr(d), d.ld)
                      : (int)cublasDgeam(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, (const double *)alpha,
                                         (const double *)addr(a), a.ld, (const double *)(DSCALARS + 8),
                                         (const double *)addr(a), a.ld, (double *)addr(d), d.ld);
    CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST));
    say("h%d geam devptr alpha=s%d+%zu dst=%s A=%s -> %d", hi, from.slot, at, show(d), show(a), st);
    if (st != 0) return;
    // one product per element: exact when both widths fit the mantissa
    Bound x = S[from.slot].b, y = S[a.slot].b;
    Bound r = {x.hi + y.hi, x.lo + y.lo, x.exact && y.exact && (x.hi - x.lo) + (y.hi - y.lo) <= (t == F64 ? 52 : 23)};
    S[d.slot].b = merge(S[d.slot].b, r);
}
