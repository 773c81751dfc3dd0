// A training-step loop whose copies come from a kernel laid out as ATen's
// strided copy is (PyTorch 2.15, issue 19): elementwise_offset_copy(int N,
// closure), the closure an OffsetCalculator<2> (int dims; IntDivider sizes[25]
// of divisor, multiplier, shift; uint32 byte strides[25][2]; dimension 0
// fastest), then char *data[2] (out at closure byte 504, in at 512), then an
// empty functor: 528 bytes. No rule: transfold must learn it.
// Usage: learn_offset_calc STEPS [garbage|fresh]
// Each step (cudaMallocAsync buffers; W and Wt in one): Wt = W^T and P = V (a plain copy,
// launched while Wt may be pending), both by the copy kernel; then
// Y1 = X * Wt and Y2 = X * P^T (cublasSgemm); everything freed.
// "garbage": the slots beyond dims hold bytes that change from launch to
// launch, as ATen's do (uninitialized stack), among them stale pointers into
// the output's block (the stack remembers earlier tensors) placed before the
// data pointers; the kernel never reads them. The bytes repeat every third
// step (a stack holds what the same calls left there), the stale pointers'
// values do not. "fresh": new bytes at every launch.
#include "common.h"

enum { R = 24, C = 16, M = 10, MAX_DIMS = 25 };
static const float ONE = 1.0f, ZERO = 0.0f;

struct int_divider {
    uint32_t divisor, m1, shift;
};
struct offset_calc {
    int32_t dims;
    int_divider sizes[MAX_DIMS];
    uint32_t strides[MAX_DIMS][2];
};
struct copy_closure {
    offset_calc oc;
    char *data[2];
    struct {
    } functor;
};
static_assert(sizeof(copy_closure) == 528, "ATen's closure is 528 bytes");
static_assert(offsetof(copy_closure, data) == 504, "data at 504");

__global__ void elementwise_offset_copy(int n, copy_closure c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t rem = (uint32_t)i, out = 0, in = 0;
    for (int d = 0; d < c.oc.dims; d++) {
        uint32_t q = rem / c.oc.sizes[d].divisor, idx = rem - q * c.oc.sizes[d].divisor;
        rem = q;
        out += idx * c.oc.strides[d][0];
        in += idx * c.oc.strides[d][1];
    }
    *(float *)(c.data[0] + out) = *(const float *)(c.data[1] + in);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

// ATen's IntDivider: magic numbers for division by d.
static int_divider divider(uint32_t d)
{
    uint32_t shift = 0;
    while (shift < 32 && (1ull << shift) < d) shift++;
    uint64_t m1 = ((1ull << 32) * ((1ull << shift) - d)) / d + 1;
    return int_divider{d, (uint32_t)m1, shift};
}

static bool garbage, fresh;
static int step_now;

// The closure as ATen builds it on its stack: slots beyond dims keep
// whatever was there.
static void copy(void *out, const void *in, int nd, const uint32_t *sizes, const uint32_t *so, const uint32_t *si,
                 cudaStream_t s)
{
    copy_closure c;
    memset(&c, 0, sizeof c);
    if (garbage) {
        if (!fresh)
            rng = 88172645463325252ull + 7919u * (unsigned)(step_now % 3) + (nd == 1 ? 104729u : 0u);
        unsigned char *b = (unsigned char *)&c;
        for (size_t k = 0; k < offsetof(copy_closure, data); k++) b[k] = (unsigned char)next_rand();
        // stale pointers into the output's block, 8-aligned in the kernel's
        // parameters (the closure starts at parameter byte 8)
        for (size_t off = 160; off + 8 <= offsetof(copy_closure, data); off += 96) {
            char *stale = (char *)out + 4 * ((unsigned)(step_now + off) % 8);
            memcpy(b + off, &stale, 8);
        }
    }
    c.oc.dims = nd;
    uint32_t n = 1;
    for (int d = 0; d < nd; d++) {
        c.oc.sizes[d] = divider(sizes[d]);
        c.oc.strides[d][0] = so[d];
        c.oc.strides[d][1] = si[d];
        n *= sizes[d];
    }
    c.data[0] = (char *)out;
    c.data[1] = (char *)in;
    elementwise_offset_copy<<<(n + 127) / 128, 128, 0, s>>>((int)n, c);
}

static void *alloc(size_t bytes, cudaStream_t s)
{
    void *p = NULL;
    CK(cudaMallocAsync(&p, bytes, s));
    return p;
}

static void upload(void *d, size_t n, unsigned seed, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) h[i] = tf_val(i, seed);
    CK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    free(h);
}

static void show_y(const char *label, int step, const float *y, cudaStream_t s)
{
    float h[M * R];
    CK(cudaMemcpyAsync(h, y, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    char name[32];
    snprintf(name, sizeof name, "step %d %s", step, label);
    show_host(name, h, M * R, 4);
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 6;
    fresh = argc > 2 && strcmp(argv[2], "fresh") == 0;
    garbage = fresh || (argc > 2 && strcmp(argv[2], "garbage") == 0);
    cudaStream_t s;
    cublasHandle_t h;
    CK(cudaStreamCreate(&s));
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s));
    const uint32_t F = sizeof(float);
    for (int step = 0; step < steps; step++) {
        step_now = step;
        // W and Wt are carved out of one block, as PyTorch's caching
        // allocator carves its tensors out of one segment: W at its start,
        // Wt 32 bytes after W's end
        float *seg = (float *)alloc(2 * R * C * F + 64, s), *w = seg, *wt = seg + R * C + 8;
        float *v = (float *)alloc(R * C * F, s), *x = (float *)alloc(M * C * F, s);
        float *p = (float *)alloc(R * C * F, s);
        float *y1 = (float *)alloc(M * R * F, s), *y2 = (float *)alloc(M * R * F, s);
        upload(w, R * C, 1 + step, s);
        upload(v, R * C, 50 + step, s);
        upload(x, M * C, 100 + step, s);
        // Wt[c][r] = W[r][c], W row-major R x C: ATen iterates Wt's shape
        // [C, R] with dimension 0 (r) fastest
        const uint32_t ts[2] = {R, C}, tso[2] = {F, R * F}, tsi[2] = {C * F, F};
        copy(wt, w, 2, ts, tso, tsi, s);
        // P = V, contiguous: one coalesced dimension
        const uint32_t ps[1] = {R * C}, pso[1] = {F};
        copy(p, v, 1, ps, pso, pso, s);
        // row-major Y1[M, R] = X[M, C] * Wt[C, R]: Wt col-major R x C, ld R
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, R, M, C, &ONE, wt, R, x, C, &ZERO, y1, R));
        CKB(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, R, M, C, &ONE, p, C, x, C, &ZERO, y2, R));
        show_y("Y1", step, y1, s);
        show_y("Y2", step, y2, s);
        float *bufs[] = {seg, p, y1, y2, v, x}; // W and Wt die together
        for (float *b : bufs) CK(cudaFreeAsync(b, s));
    }
    CK(cudaStreamSynchronize(s));
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
