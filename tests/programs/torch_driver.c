/* The driver calls PyTorch makes beyond launches and copies, as NVIDIA's
 * runtime makes them for it (through cuGetProcAddress), checked one by one:
 *
 *   pool     the cudaMallocAsync backend: the default pool's release
 *            threshold, usage counters (current, high-water mark and its
 *            reset), trim, access, stream-ordered allocation and free
 *   capture  torch.cuda.graph: capture status and ids, the per-thread
 *            capture mode (the caching allocator's cudaMalloc in relaxed
 *            mode while a global capture runs; refused in global mode), the
 *            node count of the captured graph, upload, replay
 *   graphmem a stream-ordered allocation inside a capture (the
 *            cudaMallocAsync backend under torch.cuda.graph): the graph's
 *            replays write it, the host reads it after each
 *
 *   poolfold a transpose (cublasSgeam) into a stream-ordered allocation,
 *            read by a GEMM, then freed with cuMemFreeAsync as the
 *            cudaMallocAsync backend frees a tensor: transfold sees the
 *            pool's free and drops the transpose unrun
 *   runtime  the same queries through the runtime API (cudaMemPool*,
 *            cudaStreamGetCaptureInfo, cudaThreadExchangeStreamCaptureMode,
 *            cudaGraphGetNodes, cudaGraphUpload), as a program linked with
 *            the runtime makes them
 *
 * Prints one line per fact; the same lines on a GPU.
 * Usage: torch_driver pool|capture|graphmem|poolfold|runtime
 */
#include <cuda.h>

#include "common.h"

static cuuint64_t pool_get(CUmemoryPool pool, CUmemPool_attribute attr)
{
    cuuint64_t v = 0;
    CKD(cuMemPoolGetAttribute(pool, attr, &v));
    return v;
}

static int run_pool(CUstream s)
{
    CUmemoryPool pool;
    CKD(cuDeviceGetDefaultMemPool(&pool, 0));
    cuuint64_t threshold = UINT64_MAX;
    CKD(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
    printf("release threshold kept: %d\n", pool_get(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == UINT64_MAX);
    int reuse = 0;
    CKD(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &reuse));
    CKD(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &reuse));
    printf("opportunistic reuse: %d\n", reuse);
    cuuint64_t before = pool_get(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
    CUdeviceptr p;
    CKD(cuMemAllocAsync(&p, 1 << 20, s));
    CKD(cuMemsetD8Async(p, 7, 1 << 20, s));
    cuuint64_t used = pool_get(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
    printf("used grows by the allocation: %d\n", used >= before + (1 << 20));
    printf("reserved covers used: %d\n", pool_get(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) >= used);
    unsigned char b = 0;
    CKD(cuMemcpyDtoHAsync(&b, p + 12345, 1, s));
    CKD(cuMemFreeAsync(p, s));
    CKD(cuStreamSynchronize(s));
    printf("byte read before the free: %u\n", b);
    printf("used back after the free: %d\n", pool_get(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == before);
    printf("high-water mark kept: %d\n", pool_get(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) >= used);
    cuuint64_t zero = 0;
    CKD(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero));
    printf("high-water mark reset: %d\n", pool_get(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) == before);
    CKD(cuMemPoolTrimTo(pool, 0));
    CUmemLocation here = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
    CUmemAccess_flags flags;
    CKD(cuMemPoolGetAccess(&flags, pool, &here));
    printf("own device reads and writes: %d\n", flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    return 0;
}

/* One capture of a memset, with the queries PyTorch makes around it. */
static int run_capture(CUstream s)
{
    CUdeviceptr d;
    CKD(cuMemAlloc(&d, 256));
    CKD(cuMemsetD32Async(d, 0, 64, s)); /* all on s: s does not sync with the legacy stream */
    cuuint64_t ids[2] = {0, 0};
    for (int round = 0; round < 2; round++) {
        CKD(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
        CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
        CKD(cuStreamGetCaptureInfo(s, &st, &ids[round], NULL, NULL, NULL, NULL));
        printf("capture %d active: %d\n", round, st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
        CKD(cuMemsetD32Async(d, 0x3f800000u + (unsigned)round, 64, s));
        /* The caching allocator's new segment: relaxed mode lets it through. */
        CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
        CKD(cuThreadExchangeStreamCaptureMode(&mode));
        CUdeviceptr seg;
        CUresult r = cuMemAlloc(&seg, 4096);
        printf("cuMemAlloc in relaxed mode while capturing: %d\n", (int)r);
        CKD(cuThreadExchangeStreamCaptureMode(&mode));
        printf("thread mode restored to global: %d\n", mode == CU_STREAM_CAPTURE_MODE_RELAXED);
        CUgraph g;
        CKD(cuStreamEndCapture(s, &g));
        size_t nodes = 0;
        CKD(cuGraphGetNodes(g, NULL, &nodes));
        printf("graph %d nodes: %zu\n", round, nodes);
        CUgraphExec e;
        CKD(cuGraphInstantiate(&e, g, 0));
        CKD(cuGraphUpload(e, s));
        CKD(cuGraphLaunch(e, s));
        CKD(cuStreamSynchronize(s));
        unsigned v = 0;
        CKD(cuMemcpyDtoHAsync(&v, d + 252, 4, s));
        CKD(cuStreamSynchronize(s));
        printf("replay %d wrote 0x%08x\n", round, v);
        CKD(cuGraphExecDestroy(e));
        CKD(cuGraphDestroy(g));
        if (r == CUDA_SUCCESS)
            CKD(cuMemFree(seg));
    }
    printf("capture ids differ: %d\n", ids[0] != ids[1] && ids[0] && ids[1]);
    CUstreamCaptureStatus st;
    CKD(cuStreamGetCaptureInfo(s, &st, NULL, NULL, NULL, NULL, NULL));
    printf("not capturing after the end: %d\n", st == CU_STREAM_CAPTURE_STATUS_NONE);
    /* In global mode a cuMemAlloc during the capture is refused, and the
     * capture is invalidated. */
    CKD(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CUdeviceptr seg;
    printf("cuMemAlloc in global mode while capturing refused: %d\n", cuMemAlloc(&seg, 4096) != CUDA_SUCCESS);
    CUgraph g = NULL;
    printf("that capture ends invalidated: %d\n", cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    CKD(cuMemFree(d));
    return 0;
}

/* What the cudaMallocAsync backend does under torch.cuda.graph: the
 * graph allocates its output, a replay fills it, the host reads it. */
static int run_graphmem(CUstream s)
{
    CUdeviceptr out = 0;
    CKD(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    CKD(cuMemAllocAsync(&out, 1024, s));
    CUdeviceptr tmp = 0;
    CKD(cuMemAllocAsync(&tmp, 1024, s));
    CKD(cuMemsetD32Async(tmp, 0x40000000u, 256, s));
    CKD(cuMemcpyDtoDAsync(out, tmp, 1024, s));
    CKD(cuMemFreeAsync(tmp, s));
    CUgraph g;
    CKD(cuStreamEndCapture(s, &g));
    CUgraphExec e;
    CKD(cuGraphInstantiate(&e, g, 0));
    for (int i = 0; i < 2; i++) {
        CKD(cuGraphLaunch(e, s));
        CKD(cuStreamSynchronize(s));
        float f[256];
        CKD(cuMemcpyDtoHAsync(f, out, sizeof f, s));
        CKD(cuMemsetD32Async(out, 0, 256, s));
        CKD(cuStreamSynchronize(s));
        show_host(i ? "replay 1 out" : "replay 0 out", f, 256, sizeof f[0]);
    }
    CKD(cuGraphExecDestroy(e));
    CKD(cuGraphDestroy(g));
    CKD(cuMemFreeAsync(out, s));
    CKD(cuStreamSynchronize(s));
    return 0;
}

static int run_poolfold(CUstream s)
{
    enum { R = 24, C = 16, M = 10 };
    static float hw[R * C], hx[M * C], hy[M * R];
    for (int i = 0; i < R * C; i++) hw[i] = (float)(i % 7) * 0.5f - 1.5f;
    for (int i = 0; i < M * C; i++) hx[i] = (float)(i % 5) * 0.5f - 1.0f;
    CUdeviceptr w, x, y, t;
    CKD(cuMemAllocAsync(&w, sizeof hw, s));
    CKD(cuMemAllocAsync(&x, sizeof hx, s));
    CKD(cuMemAllocAsync(&y, sizeof hy, s));
    CKD(cuMemcpyHtoDAsync(w, hw, sizeof hw, s));
    CKD(cuMemcpyHtoDAsync(x, hx, sizeof hx, s));
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s));
    const float one = 1.0f, zero = 0.0f;
    for (int step = 0; step < 2; step++) {
        CKD(cuMemAllocAsync(&t, sizeof hw, s)); /* t = W^T, C x R, in the pool */
        CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &one, (const float *)w, R, &zero, (const float *)w, R,
                        (float *)t, C));
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, R, C, &one, (const float *)x, M, (const float *)t, C, &zero,
                        (float *)y, M));
        CKD(cuMemFreeAsync(t, s)); /* the tensor dies: back to the pool */
        CKD(cuMemcpyDtoHAsync(hy, y, sizeof hy, s));
        CKD(cuStreamSynchronize(s));
        show_host(step ? "step 1 Y" : "step 0 Y", hy, M * R, sizeof hy[0]);
    }
    CKB(cublasDestroy(h));
    CKD(cuMemFreeAsync(w, s));
    CKD(cuMemFreeAsync(x, s));
    CKD(cuMemFreeAsync(y, s));
    CKD(cuStreamSynchronize(s));
    return 0;
}

static int run_runtime(CUstream s)
{
    cudaMemPool_t pool;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = 1 << 20, back = 0;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
    printf("runtime: release threshold kept: %d\n", back == threshold);
    void *p;
    CK(cudaMallocAsync(&p, 4096, s));
    CK(cudaFreeAsync(p, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemPoolTrimTo(pool, 0));
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    CK(cudaStreamGetCaptureInfo(s, &st, &id, NULL, NULL, NULL, NULL));
    printf("runtime: capturing with an id: %d\n", st == cudaStreamCaptureStatusActive && id != 0);
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CK(cudaThreadExchangeStreamCaptureMode(&mode));
    void *seg;
    printf("runtime: cudaMalloc in relaxed mode while capturing: %d\n", (int)cudaMalloc(&seg, 4096));
    CK(cudaThreadExchangeStreamCaptureMode(&mode));
    p = seg; /* the new segment is what the captured work writes */
    CK(cudaMemsetAsync(p, 1, 4096, s));
    cudaGraph_t g;
    CK(cudaStreamEndCapture(s, &g));
    size_t n = 0;
    CK(cudaGraphGetNodes(g, NULL, &n));
    printf("runtime: graph nodes: %zu\n", n);
    cudaGraphExec_t e;
    CK(cudaGraphInstantiate(&e, g, 0));
    CK(cudaGraphUpload(e, s));
    CK(cudaGraphLaunch(e, s));
    unsigned char b = 0;
    CK(cudaMemcpyAsync(&b, (char *)p + 4095, 1, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    printf("runtime: replay wrote %u\n", b);
    CK(cudaGraphExecDestroy(e));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(seg));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    CKD(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CKD(cuDeviceGet(&dev, 0));
    CKD(cuDevicePrimaryCtxRetain(&ctx, dev));
    CKD(cuCtxSetCurrent(ctx));
    CUstream s;
    CKD(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    int rc = is(argv[1], "pool") ? run_pool(s) : is(argv[1], "capture") ? run_capture(s)
           : is(argv[1], "graphmem")                                  ? run_graphmem(s)
           : is(argv[1], "poolfold")                                  ? run_poolfold(s)
           : is(argv[1], "runtime")                                   ? run_runtime(s)
                                                                      : 2;
    CKD(cuStreamDestroy(s));
    return rc;
}
