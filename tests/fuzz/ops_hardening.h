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
    // The stand-in copies at call time, out of the race detector's sight,
    // after its own stream's work only: earlier work on other streams
    // (a legacy-stream memset, a non-blocking stream's GEMM) must be done.
    if (async) cudaDeviceSynchronize();
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

// cublas{C,Z}gemv(_64) on a slot's values taken as complex pairs (f32 slots
// as cuComplex, f64 as cuDoubleComplex), A often the place a recent
// transpose wrote (its elements are half as wide as A's: never folded,
// replayed first). Exact: products of small multiples of 0.5.
static bool complex_view(View &v, Type t, int rows, int cols, const Rec *rec)
{
    v = matrix(2 * rows, cols, 2 * rows + (chance(30) ? 2 : 0));
    if (rec && slot_type(rec->dst.slot) == t && rec->dst.off % 2 == 0) {
        v.slot = rec->dst.slot;
        v.off = rec->dst.off;
        if (fits(v)) return true;
    }
    for (int tries = 0; tries < 4; tries++)
        if (place(v, t) && v.off % 2 == 0) return true;
    return false;
}

static void op_complex_gemv(void)
{
    Type t = chance(50) ? F32 : F64;
    int m = between(1, MAXD / 2), n = between(1, MAXD / 2);
    cublasOperation_t op = random_op();
    int xlen = op == CUBLAS_OP_N ? n : m, ylen = op == CUBLAS_OP_N ? m : n;
    View a, x = matrix(2 * xlen, 1), y = matrix(2 * ylen, 1);
    bool ok = complex_view(a, t, m, n, chance(60) ? recent(t) : NULL);
    for (int tries = 0; ok && tries < 4 && !(place_clear(x, t, a, a) && x.off % 2 == 0); tries++) x.slot = -1;
    for (int tries = 0; ok && tries < 4 && !(place_clear(y, t, a, x) && y.off % 2 == 0); tries++) y.slot = -1;
    if (!ok || x.slot < 0 || y.slot < 0 || x.off % 2 || y.off % 2) return say("complex gemv skipped");
    for (int round = 0; round < 2; round++) { // complex products add one bit
        Bound ba = S[a.slot].b, bx = S[x.slot].b;
        if (ba.exact && bx.exact && ba.hi + bx.hi + 1 + ceil_log2(xlen) - (ba.lo + bx.lo) <= (t == F64 ? 52 : 23))
            break;
        refill(ba.exact && (!bx.exact || ba.hi - ba.lo <= bx.hi - bx.lo) ? x.slot : a.slot);
    }
    int hi = rnd(2), lda = a.ld / 2;
    bool wide = chance(25);
    cublasHandle_t H = HS[hi];
    int st;
    if (t == F32) {
        const cuComplex one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
        const cuComplex *A = (const cuComplex *)addr(a), *X = (const cuComplex *)addr(x);
        cuComplex *Y = (cuComplex *)addr(y);
        st = wide ? (int)cublasCgemv_64(H, op, m, n, &one, A, lda, X, 1, &zero, Y, 1)
                  : (int)cublasCgemv(H, op, m, n, &one, A, lda, X, 1, &zero, Y, 1);
    } else {
        const cuDoubleComplex one = {1.0, 0.0}, zero = {0.0, 0.0};
        const cuDoubleComplex *A = (const cuDoubleComplex *)addr(a), *X = (const cuDoubleComplex *)addr(x);
        cuDoubleComplex *Y = (cuDoubleComplex *)addr(y);
        st = wide ? (int)cublasZgemv_64(H, op, m, n, &one, A, lda, X, 1, &zero, Y, 1)
                  : (int)cublasZgemv(H, op, m, n, &one, A, lda, X, 1, &zero, Y, 1);
    }
    say("h%d %cgemv%s op%c %dx%d A=%s x=%s y=%s -> %d", hi, t == F32 ? 'C' : 'Z', wide ? "_64" : "", "NTC"[op], m, n,
        show(a), show(x), show(y), st);
    if (st != 0) return;
    Bound ba = S[a.slot].b, bx = S[x.slot].b;
    Bound r = {ba.hi + bx.hi + 1 + ceil_log2(xlen), ba.lo + bx.lo, ba.exact && bx.exact};
    S[y.slot].b = merge(S[y.slot].b, r);
}
