// Differential fuzzer: a random but valid sequence of CUDA, cuBLAS and
// cuBLASLt calls on a small pool of device buffers, the same for a given
// seed with or without transfold (tests/fuzz/run.sh compares the outputs).
//
// Usage: fuzz SEED STEPS
//
// Each step prints one line: what it did (buffers as slot+offset, never
// addresses) and the status of every call, plus a hash of whatever it read
// back to the host. At the end every live buffer is hashed. A prefix of the
// steps is the same program with fewer steps, so a failing seed can be cut
// down by its step count.
//
// The operations are the ones transfold cares about: transposes (geam with
// op T/C and sometimes op N or beta != 0, the transpose kernels of
// tests/programs/kernels.cuh, cublasLtMatrixTransform), GEMMs that read the
// transposed buffers or parts of them (classic, Ex, strided-batched, gemv,
// cublasLtMatmul with and without a bias), reads, writes, memsets and copies
// that hit sources and destinations fully or partly, an unrelated kernel,
// frees and re-allocations (cudaMalloc, cudaMallocAsync, cudaMallocManaged),
// stream switches, two cuBLAS handles and their re-creation, scalars in
// device memory (pointer mode device), and invalid leading dimensions; and
// the concurrency of concurrency.cuh (forks and joins by events, host
// functions, captures, another host thread); and (ops_hardening.h) negative scales, cublasSet/Get Vector/Matrix, scalars
// read from a pending transpose's buffers, and complex GEMVs.
//
// Values stay exact: buffers are filled with multiples of 0.5 in [-2, 2] and
// each buffer carries a bound on its values (|v| <= 2^hi, v a multiple of
// 2^lo). Before a GEMM whose result could round (whatever its summation
// order), its widest input is refilled; so outputs are bitwise comparable on
// a GPU too, where a folded GEMM may run another kernel.
#include <stdarg.h>

#include <cublasLt.h>

#include "common.h"
#include "kernels.cuh"

enum { NSLOT = 9, NF32 = 6, NREC = 8, MAXD = 12, NSTREAM = 3 };
static const size_t SIZES[] = {160, 200, 256, 320, 400};

// ---- random numbers (splitmix64) --------------------------------------------

static uint64_t rng_state;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int rnd(int n) { return n > 0 ? (int)(rng() % (uint64_t)n) : 0; }
static int between(int lo, int hi) { return lo + rnd(hi - lo + 1); }
static bool chance(int pct) { return rnd(100) < pct; }
template <typename T, size_t N> static T pick(const T (&a)[N]) { return a[rnd((int)N)]; }

// ---- value bounds -----------------------------------------------------------

// Every value v of a buffer: |v| <= 2^hi and v is a multiple of 2^lo, or
// anything at all when !exact.
struct Bound {
    int hi, lo;
    bool exact;
};
static const Bound FRESH = {1, -1, true};
static Bound merge(Bound a, Bound b)
{
    return {a.hi > b.hi ? a.hi : b.hi, a.lo < b.lo ? a.lo : b.lo, a.exact && b.exact};
}
// The bound of s * values, s a scale this fuzzer uses (negative ones too:
// the sign changes no bound).
static Bound scaled(Bound b, double s)
{
    if (s < 0) s = -s;
    if (s == 2.0 || s == 0.5) {
        int k = s == 2.0 ? 1 : -1;
        return {b.hi + k, b.lo + k, b.exact};
    }
    if (s != 1.0) b.exact = false;
    return b;
}
static int ceil_log2(int k)
{
    int e = 0;
    while ((1 << e) < k) e++;
    return e;
}

// ---- the buffer pool --------------------------------------------------------

enum Type { F32, F64 };
// How a slot was allocated: transfold defers transposes only in the first two.
enum Alloc { A_DEVICE, A_ASYNC, A_MANAGED };
static const char *ALLOC_NAME[] = {"cudaMalloc", "cudaMallocAsync", "cudaMallocManaged"};
struct Slot {
    char *p; // NULL when not allocated
    Alloc how;
    Type t;
    size_t n; // elements
    Bound b;
};
static Slot S[NSLOT]; // slots [0, NF32) hold f32, the rest f64
static size_t esize(Type t) { return t == F64 ? 8 : 4; }
static Type slot_type(int i) { return i < NF32 ? F32 : F64; }

// A column-major matrix (as stored, before any op) in a slot, possibly a
// strided batch. Vectors are rows x 1.
struct View {
    int slot;
    size_t off;
    int rows, cols, ld, batch;
    long long stride;
};
static View matrix(int rows, int cols, int ld = 0)
{
    View v = {-1, 0, rows, cols, ld, 1, 0};
    return v;
}
static size_t extent(const View &v)
{
    return v.off + (size_t)v.stride * (size_t)(v.batch - 1) + (size_t)v.ld * (size_t)(v.cols - 1) + (size_t)v.rows;
}
static bool fits(const View &v)
{
    return v.slot >= 0 && S[v.slot].p && v.ld >= v.rows && extent(v) <= S[v.slot].n;
}
static void *addr(const View &v) { return S[v.slot].p + v.off * esize(S[v.slot].t); }
static const char *show(const View &v)
{
    static char buf[6][64];
    static int next;
    char *b = buf[next++ % 6];
    int k = snprintf(b, 64, "s%d+%zu %dx%d/%d", v.slot, v.off, v.rows, v.cols, v.ld);
    if (v.batch > 1) snprintf(b + k, 64 - k, " *%d@%lld", v.batch, v.stride);
    return b;
}

// Places v (its ld chosen when 0) at a random offset of a random live slot
// of type t other than the slots named in avoid; false when none fits.
static bool place(View &v, Type t, int avoid1 = -1, int avoid2 = -1)
{
    int want_ld = v.ld;
    for (int tries = 0; tries < 8; tries++) {
        int s = t == F32 ? rnd(NF32) : NF32 + rnd(NSLOT - NF32);
        if (s == avoid1 || s == avoid2 || !S[s].p) continue;
        v.slot = s;
        v.off = 0;
        v.ld = want_ld ? want_ld : v.rows + (chance(70) ? 0 : between(1, 3));
        if (v.batch > 1 && v.stride != 0) v.stride = (long long)v.ld * v.cols;
        size_t e = extent(v);
        if (e > S[s].n) continue;
        v.off = (size_t)rnd((int)(S[s].n - e + 1));
        return true;
    }
    return false;
}

// Whether two views' footprints share no element.
static bool disjoint(const View &a, const View &b)
{
    return a.slot != b.slot || extent(a) <= b.off || extent(b) <= a.off;
}
// Places out (as place() does) clear of the footprints of a and b.
static bool place_clear(View &out, Type t, const View &a, const View &b)
{
    for (int tries = 0; tries < 4; tries++)
        if (place(out, t) && disjoint(out, a) && disjoint(out, b)) return true;
    return false;
}

// ---- recent transposes: the views GEMMs like to read -----------------------

struct Rec {
    View dst, src;
};
static Rec REC[NREC];
static int nrec;
static int burst; // GEMMs still to run right after the latest transpose
static void remember(const View &dst, const View &src)
{
    REC[nrec % NREC] = {dst, src};
    nrec++;
    burst = chance(60) ? between(1, 3) : 0;
}
// A recent transpose whose destination still fits its slot (of type
// want_type unless -1): the latest one half the time.
static const Rec *recent(int want_type = -1)
{
    int n = nrec < NREC ? nrec : NREC;
    for (int tries = 0; n && tries < 6; tries++) {
        const Rec &r = REC[tries == 0 && (burst || chance(50)) ? (nrec - 1) % NREC : rnd(n)];
        if (fits(r.dst) && (want_type < 0 || slot_type(r.dst.slot) == want_type)) return &r;
    }
    return NULL;
}
// A rows x cols block of v at a random (row, column) offset, same ld.
static View block(const View &v, int rows, int cols)
{
    View b = v;
    b.off += (size_t)rnd(v.rows - rows + 1) + (size_t)rnd(v.cols - cols + 1) * (size_t)v.ld;
    b.rows = rows;
    b.cols = cols;
    return b;
}

// ---- CUDA state -------------------------------------------------------------

static cublasHandle_t HS[2]; // two cuBLAS handles, both on the current stream
static cublasLtHandle_t LT;
static cudaStream_t STREAMS[NSTREAM]; // [0] is the legacy default stream
static int CUR;
static int STEP;

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%4d ", STEP);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

// n fresh values (multiples of 0.5 in [-2, 2]) of type t at host h.
static void fresh_values(char *h, Type t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float f = (float)(rnd(9) - 4) * 0.5f;
        double d = f;
        if (t == F64)
            memcpy(h + i * 8, &d, 8);
        else
            memcpy(h + i * 4, &f, 4);
    }
}

// Writes fresh values into elements [off, off + n) of slot s; returns the status.
static int write_fresh(int s, size_t off, size_t n)
{
    size_t e = esize(S[s].t);
    char *h = (char *)malloc(n * e);
    fresh_values(h, S[s].t, n);
    int st = (int)cudaMemcpy(S[s].p + off * e, h, n * e, cudaMemcpyHostToDevice);
    free(h);
    if (st == 0) S[s].b = off == 0 && n == S[s].n ? FRESH : merge(S[s].b, FRESH);
    return st;
}

static void refill(int s) { say("refill s%d -> %d", s, write_fresh(s, 0, S[s].n)); }

static char *DSCALARS; // device copies of a call's alpha and beta

// Copies *al and *be (elem bytes each) to device memory and points them there.
static void device_scalars(size_t elem, const void **al, const void **be)
{
    CK(cudaMemcpy(DSCALARS, *al, elem, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(DSCALARS + 8, *be, elem, cudaMemcpyHostToDevice));
    *al = DSCALARS, *be = DSCALARS + 8;
}

// Allocates slot s (n elements); an asynchronous allocation is made on the
// current stream and waited for.
static int alloc_slot(int s, size_t n, Alloc how)
{
    S[s].t = slot_type(s);
    S[s].n = n;
    S[s].how = how;
    void **p = (void **)&S[s].p;
    size_t bytes = n * esize(S[s].t);
    int st = how == A_ASYNC     ? (int)cudaMallocAsync(p, bytes, STREAMS[CUR])
             : how == A_MANAGED ? (int)cudaMallocManaged(p, bytes)
                                : (int)cudaMalloc(p, bytes);
    if (st == 0 && how == A_ASYNC) st = (int)cudaStreamSynchronize(STREAMS[CUR]);
    if (st != 0) S[s].p = NULL;
    return st;
}
static int free_slot(int s)
{
    return S[s].how == A_ASYNC ? (int)cudaFreeAsync(S[s].p, STREAMS[CUR]) : (int)cudaFree(S[s].p);
}

// A contiguous element range of a slot.
struct Range {
    int slot;
    size_t off, len;
};
static Range whole(int s)
{
    Range r = {s, 0, S[s].n};
    return r;
}
// Often the footprint of a recent transpose's destination or source (all
// of it or part), otherwise all or part of a random live slot.
static bool pick_range(Range &r)
{
    const Rec *rec = chance(55) ? recent() : NULL;
    if (rec) {
        const View &v = chance(70) ? rec->dst : rec->src;
        if (!fits(v)) return false;
        r = {v.slot, v.off, extent(v) - v.off};
    } else {
        int s = rnd(NSLOT);
        if (!S[s].p) return false;
        r = whole(s);
    }
    if (chance(35)) { // a part of it
        size_t a = (size_t)rnd((int)r.len), b = (size_t)rnd((int)r.len);
        if (a > b) { size_t t = a; a = b; b = t; }
        r.off += a;
        r.len = b - a + 1;
    }
    return true;
}
static bool is_whole(const Range &r) { return r.off == 0 && r.len == S[r.slot].n; }

// ---- transposes -------------------------------------------------------------

static const double SCALES[] = {1.0, 1.0, 2.0, 0.5, 0.3, -1.0, -2.0};

// cublas{S,D}geam(_64): dst (m x n) = alpha op(src) [+ beta B], the way
// ONNX Runtime asks for a transpose (B = A, beta = 0), or its mirror
// (alpha = 0, beta op(B) with B = src), or a sum (beta = 1, B = dst or
// another matrix).
static void op_geam(void)
{
    Type t = chance(25) ? F64 : F32;
    int m = between(1, MAXD), n = between(1, MAXD);
    cublasOperation_t ta = chance(85) ? CUBLAS_OP_T : chance(60) ? CUBLAS_OP_N : CUBLAS_OP_C;
    View d = matrix(m, n), a = ta == CUBLAS_OP_N ? matrix(m, n) : matrix(n, m);
    if (!place(d, t) || !place(a, t, d.slot)) return say("geam skipped");
    double alpha = pick(SCALES), beta = 0.0;
    View b = a;
    cublasOperation_t tb = ta;
    int variant = rnd(100);
    if (ta == CUBLAS_OP_T && variant < 6) { // the mirror
        beta = alpha;
        alpha = 0.0;
    } else if (variant >= 88) { // a sum
        beta = 1.0;
        tb = CUBLAS_OP_N;
        b = matrix(m, n);
        if (chance(50) || !place(b, t, d.slot)) b = d;
    }
    bool bad = chance(2); // ldc < m: INVALID_VALUE, passed through
    bool wide = chance(15);
    bool devptr = chance(4); // refused by transfold, runs as written
    int hi = rnd(2);
    cublasHandle_t H = HS[hi];
    int ldc = bad ? 0 : d.ld;
    float fa = (float)alpha, fb = (float)beta;
    const void *al = t == F32 ? (const void *)&fa : &alpha, *be = t == F32 ? (const void *)&fb : &beta;
    if (devptr) {
        device_scalars(esize(t), &al, &be);
        CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE));
    }
    int st;
    if (t == F32) {
        const float *A = (const float *)addr(a), *B = (const float *)addr(b), *fal = (const float *)al,
                    *fbe = (const float *)be;
        float *C = (float *)addr(d);
        st = wide ? cublasSgeam_64(H, ta, tb, m, n, fal, A, a.ld, fbe, B, b.ld, C, ldc)
                  : cublasSgeam(H, ta, tb, m, n, fal, A, a.ld, fbe, B, b.ld, C, ldc);
    } else {
        const double *A = (const double *)addr(a), *B = (const double *)addr(b), *dal = (const double *)al,
                     *dbe = (const double *)be;
        double *C = (double *)addr(d);
        st = wide ? cublasDgeam_64(H, ta, tb, m, n, dal, A, a.ld, dbe, B, b.ld, C, ldc)
                  : cublasDgeam(H, ta, tb, m, n, dal, A, a.ld, dbe, B, b.ld, C, ldc);
    }
    if (devptr) CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST));
    say("h%d geam%s %s op%c a=%g b=%g dst=%s src=%s%s%s%s%s -> %d", hi, wide ? "_64" : "", t == F32 ? "S" : "D",
        "NTC"[ta], alpha, beta, show(d), show(a), tb == ta ? "" : " B=", tb == ta ? "" : show(b), bad ? " ldc=0" : "",
        devptr ? " devptr" : "", st);
    if (st != 0) return;
    Bound r = alpha == 0 ? scaled(S[a.slot].b, beta) : scaled(S[a.slot].b, alpha);
    if (alpha != 0 && beta != 0) r = merge(r, S[b.slot].b), r.hi++;
    S[d.slot].b = merge(S[d.slot].b, r);
    remember(d, a);
}

// transpose_naive / transpose_tiled / transpose_batched on f32: row-major
// in (rows x cols) -> out (cols x rows); column-major, out is rows x cols
// with ld rows and in is cols x rows with ld cols.
static void op_kernel_transpose(void)
{
    int kind = rnd(3), batch = kind == 2 ? between(2, 3) : 1, maxd = batch > 1 ? 8 : MAXD;
    int rows = between(1, maxd), cols = between(1, maxd);
    View out = matrix(rows, cols, rows), in = matrix(cols, rows, cols);
    out.batch = in.batch = batch;
    out.stride = in.stride = (long long)rows * cols;
    if (!place(out, F32) || !place(in, F32, out.slot)) return say("kernel transpose skipped");
    float *o = (float *)addr(out);
    const float *i = (const float *)addr(in);
    cudaStream_t s = STREAMS[CUR];
    static const char *names[] = {"naive", "tiled", "batched"};
    bool api = kind == 0 && chance(30);
    void *args[] = {&o, &i, &rows, &cols};
    if (api)
        cudaLaunchKernel((const void *)transpose_naive, grid2d(rows, cols), dim3(TILE, TILE), args, 0, s);
    else if (kind == 0)
        transpose_naive<<<grid2d(rows, cols), dim3(TILE, TILE), 0, s>>>(o, i, rows, cols);
    else if (kind == 1)
        transpose_tiled<<<grid2d(rows, cols), dim3(TILE, TILE), 0, s>>>(o, i, rows, cols);
    else
        transpose_batched<<<grid2d(rows, cols, batch), dim3(TILE, TILE), 0, s>>>(o, i, rows, cols, batch);
    int st = (int)cudaGetLastError(); // the launch's status, whichever way it went
    say("kernel %s%s out=%s in=%s -> %d", names[kind], api ? " (cudaLaunchKernel)" : "", show(out), show(in), st);
    if (st != 0) return;
    S[out.slot].b = merge(S[out.slot].b, S[in.slot].b);
    remember(out, in);
}

static cublasLtMatrixLayout_t layout(const View &v)
{
    cublasLtMatrixLayout_t l;
    CKB(cublasLtMatrixLayoutCreate(&l, slot_type(v.slot) == F64 ? CUDA_R_64F : CUDA_R_32F, v.rows, v.cols, v.ld));
    if (v.batch > 1) {
        int32_t b = v.batch;
        int64_t stride = v.stride;
        CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &b, sizeof b));
        CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
    }
    return l;
}

// cublasLtMatrixTransform, f32: dst (m x n) = alpha src^T, sometimes
// + dst (beta 1, B = C in place).
static void op_lt_transform(void)
{
    int m = between(1, MAXD), n = between(1, MAXD);
    View d = matrix(m, n), a = matrix(n, m);
    if (chance(25)) {
        d.batch = a.batch = 2;
        d.stride = a.stride = 1; // dense, set by place()
    }
    if (!place(d, F32) || !place(a, F32, d.slot)) return say("lt transform skipped");
    float alpha = (float)pick(SCALES), beta = chance(10) ? 1.0f : 0.0f;
    cublasLtMatrixTransformDesc_t desc;
    CKB(cublasLtMatrixTransformDescCreate(&desc, CUDA_R_32F));
    int32_t op = CUBLAS_OP_T;
    CKB(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &op, sizeof op));
    cublasLtMatrixLayout_t dl = layout(d), al = layout(a);
    void *b = beta != 0 ? addr(d) : NULL;
    int st = (int)cublasLtMatrixTransform(LT, desc, &alpha, addr(a), al, &beta, b, b ? dl : NULL, addr(d), dl,
                                          STREAMS[CUR]);
    CKB(cublasLtMatrixLayoutDestroy(dl));
    CKB(cublasLtMatrixLayoutDestroy(al));
    CKB(cublasLtMatrixTransformDescDestroy(desc));
    say("lt transform a=%g b=%g dst=%s src=%s -> %d", alpha, beta, show(d), show(a), st);
    if (st != 0) return;
    Bound r = scaled(S[a.slot].b, alpha);
    if (beta != 0) r = merge(r, S[d.slot].b), r.hi++;
    S[d.slot].b = merge(S[d.slot].b, r);
    remember(d, a);
}

// ---- GEMMs ------------------------------------------------------------------

enum Kind { G_GEMM, G_GEMM64, G_GEMMEX, G_SGEMMEX, G_BATCHED, G_BATCHEDEX, G_GEMV, G_LT, G_NKIND };
static const char *KIND_NAME[] = {"gemm", "gemm_64", "gemmEx", "sgemmEx", "stridedBatched", "stridedBatchedEx",
                                  "gemv", "ltMatmul"};

struct Gemm {
    Kind kind;
    Type t;
    cublasOperation_t ta, tb;
    int m, n, k, batch;
    View a, b, c, bias; // gemv: b is x, c is y; bias.slot < 0 when none
    double alpha, beta;
    bool bad_ld; // lda passed as 0: INVALID_VALUE
    bool devptr; // alpha and beta in device memory (pointer mode device)
    int h;       // which of HS
};

static cublasOperation_t random_op(void) { return chance(8) ? CUBLAS_OP_C : chance(50) ? CUBLAS_OP_T : CUBLAS_OP_N; }
static bool transposed(cublasOperation_t op) { return op != CUBLAS_OP_N; }

// The operand read from a recent transpose: a block of its destination (all
// of it half the time), sometimes with another ld or shifted off it.
static View from_recent(const Rec &r, int batch)
{
    View v = chance(50) ? r.dst : block(r.dst, between(1, r.dst.rows), between(1, r.dst.cols));
    if (v.batch != batch) { // a batch over one matrix: stride 0
        v.batch = batch;
        v.stride = 0;
    }
    View w = v;
    if (chance(10)) w.ld = v.ld + (chance(50) ? between(1, 3) : -between(1, 3));
    if (chance(8)) w.off = v.off + (size_t)between(0, 3) - (chance(50) ? 0 : (v.off < 3 ? v.off : 3));
    return fits(w) ? w : v;
}

// A rows x cols operand somewhere: a block of a recent transpose when one
// is big enough (sometimes), else a fresh placement.
static bool operand(View &v, Type t, int rows, int cols, int batch, int avoid = -1)
{
    const Rec *r = chance(25) ? recent(t) : NULL;
    if (r && r->dst.rows >= rows && r->dst.cols >= cols && r->dst.slot != avoid) {
        v = block(r->dst, rows, cols);
        if (v.batch != batch) v.batch = batch, v.stride = 0;
        if (fits(v)) return true;
    }
    v = matrix(rows, cols);
    v.batch = batch;
    v.stride = batch > 1 && chance(85) ? 1 : 0; // dense (set by place) or shared
    return place(v, t, avoid);
}

// The operands and output of a GEMM that reads X, a block of a recent
// transpose r (or a fresh placement), as A or B; the other operand is
// placed by operand(), the output clear of both.
static bool gemm_reading(Gemm &g, const Rec *r)
{
    bool x_is_a = g.kind == G_GEMV || chance(50);
    cublasOperation_t opx = random_op(), opy = random_op();
    View x;
    if (r)
        x = from_recent(*r, g.batch);
    else {
        x = matrix(between(1, MAXD), between(1, MAXD));
        if (!operand(x, g.t, x.rows, x.cols, g.batch)) return false;
    }
    // op(X) is d0 x d1, which decides two of m, n, k; the third is free
    int d0 = transposed(opx) ? x.cols : x.rows, d1 = transposed(opx) ? x.rows : x.cols, free_dim = between(1, 8);
    if (g.kind == G_GEMV) { // y (d0) = op(A) x (d1), A is m x n as stored
        g.ta = opx;
        g.a = x;
        g.m = x.rows, g.n = x.cols, g.k = d1;
        View xv = matrix(d1, 1), yv = matrix(d0, 1);
        if (!place(xv, g.t) || !place_clear(yv, g.t, x, xv)) return false;
        g.b = xv, g.c = yv;
        return true;
    }
    if (x_is_a) {
        g.ta = opx, g.tb = opy, g.a = x;
        g.m = d0, g.k = d1, g.n = free_dim;
        if (!operand(g.b, g.t, transposed(opy) ? g.n : g.k, transposed(opy) ? g.k : g.n, g.batch)) return false;
    } else {
        g.tb = opx, g.ta = opy, g.b = x;
        g.k = d0, g.n = d1, g.m = free_dim;
        if (!operand(g.a, g.t, transposed(opy) ? g.k : g.m, transposed(opy) ? g.m : g.k, g.batch)) return false;
    }
    g.c = matrix(g.m, g.n);
    g.c.batch = g.batch;
    g.c.stride = g.batch > 1 ? 1 : 0; // dense
    return place_clear(g.c, g.t, g.a, g.b);
}

// A GEMM whose output is all of d, a recent transpose's destination (with
// beta != 0 it reads it too); its inputs live in other slots.
static bool gemm_into(Gemm &g, const View &d)
{
    if (g.kind == G_GEMV || g.batch != d.batch) return false;
    g.m = d.rows, g.n = d.cols, g.k = between(1, 8);
    g.ta = random_op(), g.tb = random_op();
    g.c = d;
    return operand(g.a, g.t, transposed(g.ta) ? g.k : g.m, transposed(g.ta) ? g.m : g.k, g.batch, d.slot) &&
           operand(g.b, g.t, transposed(g.tb) ? g.n : g.k, transposed(g.tb) ? g.k : g.n, g.batch, d.slot);
}

static bool build_gemm(Gemm &g)
{
    const Rec *r = burst || chance(85) ? recent() : NULL;
    bool into = r && !burst && chance(15);
    g.t = r ? slot_type(r->dst.slot) : chance(25) ? F64 : F32;
    static const Kind f64_kinds[] = {G_GEMM, G_GEMM64, G_BATCHED, G_GEMV};
    g.kind = g.t == F64 ? pick(f64_kinds) : (Kind)rnd(G_NKIND);
    bool batched = g.kind == G_BATCHED || g.kind == G_BATCHEDEX || (g.kind == G_LT && chance(25));
    g.batch = !batched ? 1 : r && r->dst.batch > 1 ? r->dst.batch : between(2, 3);
    g.alpha = (chance(85) ? 1.0 : -1.0) * (chance(60) ? 1.0 : chance(50) ? 2.0 : 0.5);
    g.beta = chance(75) ? 0.0 : 1.0;
    g.bad_ld = g.kind != G_LT && chance(2);
    g.devptr = chance(8);
    g.h = rnd(2);
    g.bias.slot = -1;
    if (!(into ? gemm_into(g, r->dst) : gemm_reading(g, r))) return false;
    if (g.kind == G_LT && chance(40)) {
        g.bias = matrix(g.m, 1);
        if (!place_clear(g.bias, F32, g.c, g.c)) g.bias.slot = -1;
    }
    return true;
}

// The scalars of a call in its type.
struct Scalar {
    float f;
    double d;
    const void *p(Type t) const { return t == F64 ? (const void *)&d : (const void *)&f; }
};

static cublasStatus_t lt_matmul(const Gemm &g, const void *alpha, const void *beta)
{
    cublasLtMatmulDesc_t md;
    CKB(cublasLtMatmulDescCreate(&md, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    int32_t ta = g.ta, tb = g.tb, pm = CUBLASLT_POINTER_MODE_DEVICE;
    if (g.devptr) CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, sizeof pm));
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (g.bias.slot >= 0) {
        int32_t epi = CUBLASLT_EPILOGUE_BIAS;
        const void *bias = addr(g.bias);
        CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
        CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    }
    cublasLtMatrixLayout_t al = layout(g.a), bl = layout(g.b), cl = layout(g.c);
    cublasStatus_t st = cublasLtMatmul(LT, md, alpha, addr(g.a), al, addr(g.b), bl, beta, addr(g.c), cl, addr(g.c), cl,
                                       NULL, NULL, 0, STREAMS[CUR]);
    CKB(cublasLtMatrixLayoutDestroy(al));
    CKB(cublasLtMatrixLayoutDestroy(bl));
    CKB(cublasLtMatrixLayoutDestroy(cl));
    CKB(cublasLtMatmulDescDestroy(md));
    return st;
}

// The call g describes, its scalars at al and be.
static cublasStatus_t issue_gemm(const Gemm &g, const void *al, const void *be)
{
    cublasHandle_t H = HS[g.h];
    const void *A = addr(g.a), *B = addr(g.b);
    void *C = addr(g.c);
    int lda = g.bad_ld ? 0 : g.a.ld;
    bool f64 = g.t == F64;
    cudaDataType dt = CUDA_R_32F;
    switch (g.kind) {
    case G_GEMM:
        return f64 ? cublasDgemm(H, g.ta, g.tb, g.m, g.n, g.k, (const double *)al, (const double *)A, lda,
                                 (const double *)B, g.b.ld, (const double *)be, (double *)C, g.c.ld)
                   : cublasSgemm(H, g.ta, g.tb, g.m, g.n, g.k, (const float *)al, (const float *)A, lda,
                                 (const float *)B, g.b.ld, (const float *)be, (float *)C, g.c.ld);
    case G_GEMM64:
        return f64 ? cublasDgemm_64(H, g.ta, g.tb, g.m, g.n, g.k, (const double *)al, (const double *)A, lda,
                                    (const double *)B, g.b.ld, (const double *)be, (double *)C, g.c.ld)
                   : cublasSgemm_64(H, g.ta, g.tb, g.m, g.n, g.k, (const float *)al, (const float *)A, lda,
                                    (const float *)B, g.b.ld, (const float *)be, (float *)C, g.c.ld);
    case G_GEMMEX:
        return cublasGemmEx(H, g.ta, g.tb, g.m, g.n, g.k, al, A, dt, lda, B, dt, g.b.ld, be, C, dt, g.c.ld,
                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    case G_SGEMMEX:
        return cublasSgemmEx(H, g.ta, g.tb, g.m, g.n, g.k, (const float *)al, A, dt, lda, B, dt, g.b.ld,
                             (const float *)be, C, dt, g.c.ld);
    case G_BATCHED:
        return f64 ? cublasDgemmStridedBatched(H, g.ta, g.tb, g.m, g.n, g.k, (const double *)al, (const double *)A,
                                               lda, g.a.stride, (const double *)B, g.b.ld, g.b.stride,
                                               (const double *)be, (double *)C, g.c.ld, g.c.stride, g.batch)
                   : cublasSgemmStridedBatched(H, g.ta, g.tb, g.m, g.n, g.k, (const float *)al, (const float *)A, lda,
                                               g.a.stride, (const float *)B, g.b.ld, g.b.stride, (const float *)be,
                                               (float *)C, g.c.ld, g.c.stride, g.batch);
    case G_BATCHEDEX:
        return cublasGemmStridedBatchedEx(H, g.ta, g.tb, g.m, g.n, g.k, al, A, dt, lda, g.a.stride, B, dt, g.b.ld,
                                          g.b.stride, be, C, dt, g.c.ld, g.c.stride, g.batch, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT);
    case G_GEMV:
        return f64 ? cublasDgemv(H, g.ta, g.m, g.n, (const double *)al, (const double *)A, lda, (const double *)B, 1,
                                 (const double *)be, (double *)C, 1)
                   : cublasSgemv(H, g.ta, g.m, g.n, (const float *)al, (const float *)A, lda, (const float *)B, 1,
                                 (const float *)be, (float *)C, 1);
    default:
        return lt_matmul(g, al, be);
    }
}

// Issues g with its scalars on the host, or copied to device memory with
// the handle (cuBLASLt: the descriptor) in device pointer mode.
static cublasStatus_t call_gemm(const Gemm &g)
{
    Scalar alpha = {(float)g.alpha, g.alpha}, beta = {(float)g.beta, g.beta};
    const void *al = alpha.p(g.t), *be = beta.p(g.t);
    bool classic = g.kind != G_LT;
    if (g.devptr) {
        device_scalars(esize(g.t), &al, &be);
        if (classic) CKB(cublasSetPointerMode(HS[g.h], CUBLAS_POINTER_MODE_DEVICE));
    }
    cublasStatus_t st = issue_gemm(g, al, be);
    if (g.devptr && classic) CKB(cublasSetPointerMode(HS[g.h], CUBLAS_POINTER_MODE_HOST));
    return st;
}

// The bound of the GEMM's result from its inputs' bounds.
static Bound result_bound(const Gemm &g)
{
    Bound a = S[g.a.slot].b, b = S[g.b.slot].b;
    double s = g.alpha < 0 ? -g.alpha : g.alpha;
    int e = s == 2.0 ? 1 : s == 0.5 ? -1 : 0;
    Bound r = {a.hi + b.hi + ceil_log2(g.k) + e, a.lo + b.lo + e, a.exact && b.exact};
    if (g.beta != 0) r = merge(r, S[g.c.slot].b), r.hi++;
    if (g.bias.slot >= 0) r = merge(r, S[g.bias.slot].b), r.hi++;
    return r;
}

// Refills the widest input until the result is exact in any summation order.
static void keep_exact(const Gemm &g)
{
    int inputs[4] = {g.a.slot, g.b.slot, g.beta != 0 ? g.c.slot : -1, g.bias.slot};
    int mant = g.t == F64 ? 52 : 23;
    for (int round = 0; round < 4; round++) {
        Bound r = result_bound(g);
        if (r.exact && r.hi - r.lo <= mant && r.hi <= 40 && r.lo >= -40) return;
        int worst = -1, width = -1;
        for (int i = 0; i < 4; i++) {
            int s = inputs[i];
            if (s < 0) continue;
            int w = S[s].b.exact ? S[s].b.hi - S[s].b.lo : 1000;
            if (w > width) worst = s, width = w;
        }
        refill(worst);
    }
}

static void op_gemm(void)
{
    Gemm g = {};
    if (!build_gemm(g)) return say("gemm skipped");
    keep_exact(g);
    int st = (int)call_gemm(g);
    const char *handle = g.kind == G_LT ? "lt" : g.h ? "h1" : "h0";
    say("%s %s %s op%c%c %dx%dx%d a=%g b=%g A=%s B=%s C=%s%s%s%s%s -> %d", handle, KIND_NAME[g.kind],
        g.t == F32 ? "S" : "D", "NTC"[g.ta], g.kind == G_GEMV ? '-' : "NTC"[g.tb], g.m, g.n, g.k, g.alpha, g.beta,
        show(g.a), show(g.b), show(g.c), g.bias.slot >= 0 ? " bias=" : "", g.bias.slot >= 0 ? show(g.bias) : "",
        g.bad_ld ? " lda=0" : "", g.devptr ? " devptr" : "", st);
    if (st == 0) S[g.c.slot].b = merge(S[g.c.slot].b, result_bound(g));
}

// ---- memory traffic ---------------------------------------------------------

static void op_read(void)
{
    Range r;
    if (!pick_range(r)) return say("read skipped");
    size_t e = esize(S[r.slot].t);
    char *h = (char *)malloc(r.len * e);
    bool async = chance(30);
    int st;
    if (async) {
        st = (int)cudaMemcpyAsync(h, S[r.slot].p + r.off * e, r.len * e, cudaMemcpyDeviceToHost, STREAMS[CUR]);
        int st2 = (int)cudaStreamSynchronize(STREAMS[CUR]);
        st = st ? st : st2;
    } else {
        st = (int)cudaMemcpy(h, S[r.slot].p + r.off * e, r.len * e, cudaMemcpyDeviceToHost);
    }
    say("read%s s%d+%zu n=%zu -> %d fnv=%016llx", async ? " async" : "", r.slot, r.off, r.len, st,
        st ? 0ull : (unsigned long long)fnv1a(h, r.len * e));
    free(h);
}

static void op_write(void)
{
    Range r;
    if (!pick_range(r)) return say("write skipped");
    say("write s%d+%zu n=%zu -> %d", r.slot, r.off, r.len, write_fresh(r.slot, r.off, r.len));
}

static void op_copy(void)
{
    Range d;
    if (!pick_range(d)) return say("copy skipped");
    Type t = S[d.slot].t;
    View s = matrix((int)d.len, 1);
    if (!place(s, t, d.slot)) return say("copy skipped");
    size_t e = esize(t);
    bool async = chance(30);
    char *dst = S[d.slot].p + d.off * e;
    const void *src = addr(s);
    int st = async ? (int)cudaMemcpyAsync(dst, src, d.len * e, cudaMemcpyDeviceToDevice, STREAMS[CUR])
                   : (int)cudaMemcpy(dst, src, d.len * e, cudaMemcpyDeviceToDevice);
    say("copy%s s%d+%zu <- s%d+%zu n=%zu -> %d", async ? " async" : "", d.slot, d.off, s.slot, s.off, d.len, st);
    if (st == 0) S[d.slot].b = is_whole(d) ? S[s.slot].b : merge(S[d.slot].b, S[s.slot].b);
}

static void op_memset(void)
{
    Range r;
    if (!pick_range(r)) return say("memset skipped");
    int byte = chance(85) ? 0 : 0x3f;
    size_t e = esize(S[r.slot].t);
    bool async = chance(30);
    char *p = S[r.slot].p + r.off * e;
    int st = async ? (int)cudaMemsetAsync(p, byte, r.len * e, STREAMS[CUR]) : (int)cudaMemset(p, byte, r.len * e);
    say("memset%s s%d+%zu n=%zu byte=%#x -> %d", async ? " async" : "", r.slot, r.off, r.len, byte, st);
    if (st != 0) return;
    Bound z = {0, 0, byte == 0};
    S[r.slot].b = is_whole(r) ? z : merge(S[r.slot].b, z);
}

// scale_f32 over a range of any slot, its words taken as floats.
static void op_scale(void)
{
    Range r;
    if (!pick_range(r)) return say("scale skipped");
    int words = (int)(esize(S[r.slot].t) / 4);
    float *x = (float *)S[r.slot].p + r.off * words;
    int n = (int)r.len * words;
    float s = chance(45) ? 2.0f : chance(80) ? 0.5f : 3.0f;
    scale_f32<<<(n + 63) / 64, 64, 0, STREAMS[CUR]>>>(x, n, s);
    int st = (int)cudaGetLastError();
    say("kernel scale s%d+%zu n=%zu by %g -> %d", r.slot, r.off, r.len, s, st);
    if (st != 0) return;
    Bound &b = S[r.slot].b;
    Bound sb = scaled(b, s);
    if (S[r.slot].t != F32) sb.exact = false;
    b = is_whole(r) ? sb : merge(b, sb);
}

// Frees a slot and allocates it again (often at the same size, so the
// allocator may hand back the same address), filled fresh or zeroed.
static void op_realloc(void)
{
    int s = rnd(NSLOT);
    int st = S[s].p ? free_slot(s) : -1;
    size_t n = chance(50) && S[s].p ? S[s].n : pick(SIZES);
    Alloc how = chance(75) ? A_DEVICE : chance(60) ? A_ASYNC : A_MANAGED;
    S[s].p = NULL;
    int st2 = alloc_slot(s, n, how);
    int st3 = -1;
    bool zero = chance(30);
    if (st2 == 0 && zero) {
        st3 = (int)cudaMemset(S[s].p, 0, n * esize(S[s].t));
        S[s].b = {0, 0, true};
    } else if (st2 == 0) {
        st3 = write_fresh(s, 0, n);
    }
    say("realloc s%d n=%zu %s %s -> %d %d %d", s, n, ALLOC_NAME[how], zero ? "zeroed" : "filled", st, st2, st3);
}

static void op_stream(void)
{
    int st = (int)cudaStreamSynchronize(STREAMS[CUR]);
    CUR = (CUR + between(1, NSTREAM - 1)) % NSTREAM;
    int st2 = (int)cublasSetStream(HS[0], STREAMS[CUR]), st3 = (int)cublasSetStream(HS[1], STREAMS[CUR]);
    say("stream %d -> %d %d %d", CUR, st, st2, st3);
}

static void op_handle(void)
{
    if (chance(60)) {
        int h = rnd(2);
        int st = (int)cublasDestroy(HS[h]), st2 = (int)cublasCreate(&HS[h]);
        int st3 = (int)cublasSetStream(HS[h], STREAMS[CUR]);
        say("cublas handle h%d recreated -> %d %d %d", h, st, st2, st3);
    } else {
        int st = (int)cublasLtDestroy(LT), st2 = (int)cublasLtCreate(&LT);
        say("cublasLt handle recreated -> %d %d", st, st2);
    }
}

static void op_sync(void) { say("device sync -> %d", (int)cudaDeviceSynchronize()); }

#include "concurrency.cuh"
#include "ops_hardening.h"

// ---- main -------------------------------------------------------------------

struct Op {
    void (*run)(void);
    int weight;
};
static const Op OPS[] = {
    {op_geam, 18},  {op_kernel_transpose, 8}, {op_lt_transform, 5}, {op_gemm, 28}, {op_read, 9},
    {op_write, 6},  {op_copy, 5},             {op_memset, 4},        {op_scale, 5}, {op_realloc, 5},
    {op_stream, 3}, {op_handle, 2},           {op_sync, 2},
    {op_fork, 6},   {op_host_fn, 2},          {op_capture, 2},       {op_thread, 2},
    {op_setget, 5}, {op_devptr_scalar, 3},    {op_complex_gemv, 4},
};

static void step(void)
{
    if (burst > 0) {
        op_gemm();
        burst--;
        return;
    }
    int total = 0;
    for (const Op &o : OPS) total += o.weight;
    int x = rnd(total);
    for (const Op &o : OPS) {
        if (x < o.weight) return o.run();
        x -= o.weight;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        printf("usage: %s SEED STEPS\n", argv[0]);
        return 64;
    }
    rng_state = strtoull(argv[1], NULL, 0);
    int steps = atoi(argv[2]);
    printf("fuzz seed %s steps %d\n", argv[1], steps);
    CKB(cublasCreate(&HS[0]));
    CKB(cublasCreate(&HS[1]));
    CKB(cublasLtCreate(&LT));
    for (int i = 1; i < NSTREAM; i++) CK(cudaStreamCreate(&STREAMS[i]));
    concurrency_setup();
    CK(cudaMalloc((void **)&DSCALARS, 16));
    for (int s = 0; s < NSLOT; s++) {
        CK(cudaError_t(alloc_slot(s, pick(SIZES), A_DEVICE)));
        CK(cudaError_t(write_fresh(s, 0, S[s].n)));
    }
    for (STEP = 1; STEP <= steps; STEP++) step();
    concurrency_teardown();
    for (int s = 0; s < NSLOT; s++) {
        if (!S[s].p) continue;
        char label[16];
        snprintf(label, sizeof label, "final s%d", s);
        show_dev(label, S[s].p, S[s].n, esize(S[s].t));
        CK(cudaError_t(free_slot(s)));
    }
    CK(cudaFree(DSCALARS));
    CKB(cublasLtDestroy(LT));
    CKB(cublasDestroy(HS[0]));
    CKB(cublasDestroy(HS[1]));
    for (int i = 1; i < NSTREAM; i++) CK(cudaStreamDestroy(STREAMS[i]));
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
