// Deferral under concurrency: orders a real GPU allows that a deferred
// transpose must survive. Meant for the asynchronous stand-in
// (SIMCUDA_ASYNC=1) with its race detector (SIMCUDA_RACE); every case is
// race-free without transfold. Usage: concurrency CASE
//
//   late_overwrite  geam transpose on s1, event e after it, a GEMM on s1
//                   reads Wt (folded: it reads W), Wt is then overwritten (the
//                   record is dropped); s2 waits on e and rewrites W: it must
//                   also wait for the folded GEMM's late read of W
//   late_free       the same, the record materialized by a copy of Wt to the
//                   pinned host memory (its replay reads W late); s2 waits on e and frees W
//                   with cudaFreeAsync
//   host_func       geam transpose on s1, e after it, then a host function on
//                   s1 that waits for the host; s2 waits on e and reads Wt by
//                   a GEMM, and the host synchronizes s2 before letting the
//                   host function go: the replay must not queue behind it
//   handle_thread   transposes deferred on handle H; thread A switches H to
//                   device pointer mode and keeps reading it, thread B reads
//                   the transposes back (replays): A must never see H change
//   capture_join    capture on s1; a transpose deferred on s2 before s2 joins
//                   the capture by an event; the GEMM on s2 is captured; W is
//                   rewritten, then the graph launched: the graph must read
//                   the transpose made before, not the new W
//   capture_fold    a global capture on s1 while a transpose and its GEMM run
//                   on s2 (folded there): verify mode must not allocate,
//                   copy or synchronize while the capture lasts
//   racy            a deliberate race: two streams write one buffer with
//                   nothing ordering them (the detector's own test)
#include <pthread.h>
#include <unistd.h>

#include "common.h"
#include "kernels.cuh"

static cublasHandle_t H;
static const float ONE = 1.0f, ZERO = 0.0f;
enum { ROWS = 24, COLS = 16, M = 10 };

// Wt (col-major ROWS x COLS, ld ROWS) = transpose of W on h's stream.
static void geam_transpose(cublasHandle_t h, float *wt, const float *w)
{
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, ROWS, COLS, &ONE, w, COLS, &ZERO, w, COLS, wt, ROWS));
}

// Y (ROWS x M) = Wt * X on h's stream.
static void gemm(cublasHandle_t h, const float *wt, const float *x, float *y)
{
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ROWS, M, COLS, &ONE, wt, ROWS, x, COLS, &ZERO, y, ROWS));
}

static cudaStream_t stream(void)
{
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
}

static void late_overwrite(float *w, float *wt, const float *x, float *y)
{
    cudaStream_t s1 = stream(), s2 = stream();
    cudaEvent_t e;
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CKB(cublasSetStream(H, s1));
    geam_transpose(H, wt, w);
    CK(cudaEventRecord(e, s1));
    gemm(H, wt, x, y);
    CK(cudaMemsetAsync(wt, 0, ROWS * COLS * sizeof(float), s1));
    CK(cudaStreamWaitEvent(s2, e, 0));
    CK(cudaMemsetAsync(w, 0x3f, ROWS * COLS * sizeof(float), s2));
    CK(cudaDeviceSynchronize());
    show_dev("Y", y, M * ROWS, 4);
    show_dev("W", w, ROWS * COLS, 4);
}

static void late_free(float *w, float *wt, const float *x, float *y)
{
    cudaStream_t s1 = stream(), s2 = stream();
    cudaEvent_t e;
    float *host; // pinned: the copy does not make the host wait
    CK(cudaMallocHost(&host, ROWS * COLS * sizeof(float)));
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CKB(cublasSetStream(H, s1));
    geam_transpose(H, wt, w);
    CK(cudaEventRecord(e, s1));
    gemm(H, wt, x, y);
    CK(cudaMemcpyAsync(host, wt, ROWS * COLS * sizeof(float), cudaMemcpyDeviceToHost, s1));
    CK(cudaStreamWaitEvent(s2, e, 0));
    CK(cudaFreeAsync(w, s2));
    CK(cudaDeviceSynchronize());
    show_host("Wt", host, ROWS * COLS, 4);
    show_dev("Y", y, M * ROWS, 4);
    CK(cudaFreeHost(host));
}

// The host function waits for the host, at most 5 s (a deadlock otherwise).
static volatile int released, timed_out;
static void CUDART_CB wait_for_host(void *)
{
    for (int i = 0; i < 5000 && !released; i++)
        usleep(1000);
    timed_out = !released;
}

static void host_func(const float *w, float *wt, const float *x, float *y)
{
    cudaStream_t s1 = stream(), s2 = stream();
    cublasHandle_t h2;
    cudaEvent_t e;
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CKB(cublasCreate(&h2));
    CKB(cublasSetStream(H, s1));
    CKB(cublasSetStream(h2, s2));
    geam_transpose(H, wt, w);
    CK(cudaEventRecord(e, s1));
    CK(cudaLaunchHostFunc(s1, wait_for_host, NULL));
    CK(cudaStreamWaitEvent(s2, e, 0));
    gemm(h2, wt, x, y);
    CK(cudaStreamSynchronize(s2));
    released = 1;
    CK(cudaDeviceSynchronize());
    printf("host function timed out: %d\n", timed_out);
    show_dev("Y", y, M * ROWS, 4);
    CKB(cublasDestroy(h2));
}

enum { REPLAYS = 400 };
typedef struct handle_job { float *wt[REPLAYS]; volatile int go, done; int changed; } handle_job;

static void *watch_mode(void *arg)
{
    handle_job *j = (handle_job *)arg;
    CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE));
    j->go = 1;
    while (!j->done) {
        cublasPointerMode_t m;
        CKB(cublasGetPointerMode(H, &m));
        j->changed |= m != CUBLAS_POINTER_MODE_DEVICE;
    }
    return NULL;
}

static void handle_thread(const float *w)
{
    handle_job j = {};
    for (int i = 0; i < REPLAYS; i++) {
        j.wt[i] = (float *)dev_zero(ROWS * COLS * sizeof(float));
        geam_transpose(H, j.wt[i], w);
    }
    pthread_t t;
    pthread_create(&t, NULL, watch_mode, &j);
    while (!j.go)
        sched_yield();
    float *host = (float *)malloc(ROWS * COLS * sizeof(float));
    uint64_t sum = 0;
    for (int i = 0; i < REPLAYS; i++) {
        CK(cudaMemcpy(host, j.wt[i], ROWS * COLS * sizeof(float), cudaMemcpyDeviceToHost));
        sum ^= fnv1a(host, ROWS * COLS * sizeof(float));
    }
    j.done = 1;
    pthread_join(t, NULL);
    CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST));
    printf("Wt readbacks: fnv=%016llx\n", (unsigned long long)sum);
    printf("pointer mode seen changed: %d\n", j.changed);
    for (int i = 0; i < REPLAYS; i++)
        CK(cudaFree(j.wt[i]));
    free(host);
}

static void capture_join(float *w, float *wt, const float *x, float *y)
{
    cudaStream_t s1 = stream(), s2 = stream();
    cublasHandle_t h2;
    cudaEvent_t fork, join;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    CKB(cublasCreate(&h2));
    CKB(cublasSetStream(h2, s2));
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    geam_transpose(h2, wt, w); // s2 is not capturing yet: this runs outside the graph
    CK(cudaEventRecord(fork, s1));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    gemm(h2, wt, x, y);
    CK(cudaEventRecord(join, s2));
    CK(cudaStreamWaitEvent(s1, join, 0));
    CK(cudaStreamEndCapture(s1, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(w, 0x3f, ROWS * COLS * sizeof(float)));
    CK(cudaDeviceSynchronize());
    CK(cudaGraphLaunch(ge, s1));
    CK(cudaStreamSynchronize(s1));
    show_dev("Y", y, M * ROWS, 4);
    show_dev("Wt", wt, ROWS * COLS, 4);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CKB(cublasDestroy(h2));
}

static void capture_fold(const float *w, float *wt, const float *x, float *y)
{
    cudaStream_t s1 = stream(), s2 = stream();
    cudaGraph_t g;
    cudaGraphExec_t ge;
    float *z = (float *)dev_zero(M * ROWS * sizeof(float));
    CKB(cublasSetStream(H, s2));
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    geam_transpose(H, wt, w); // s2 is not captured: folded as usual
    gemm(H, wt, x, y);
    CK(cudaMemcpyAsync(z, y, M * ROWS * sizeof(float), cudaMemcpyDeviceToDevice, s1));
    CK(cudaStreamEndCapture(s1, &g));
    CK(cudaStreamSynchronize(s2));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s1));
    CK(cudaStreamSynchronize(s1));
    show_dev("Y", y, M * ROWS, 4);
    show_dev("Z", z, M * ROWS, 4);
    show_dev("Wt", wt, ROWS * COLS, 4);
    CK(cudaFree(z));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
}

static void racy(float *w)
{
    cudaStream_t s1 = stream(), s2 = stream();
    CK(cudaMemsetAsync(w, 1, ROWS * COLS * sizeof(float), s1));
    CK(cudaMemsetAsync(w, 2, ROWS * COLS * sizeof(float), s2));
    CK(cudaDeviceSynchronize());
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    CKB(cublasCreate(&H));
    float *w = dev_f32(ROWS * COLS, 1), *x = dev_f32(M * COLS, 2);
    float *wt = (float *)dev_zero(ROWS * COLS * sizeof(float)), *y = (float *)dev_zero(M * ROWS * sizeof(float));
    bool w_freed = false;
    if (is(argv[1], "late_overwrite")) late_overwrite(w, wt, x, y);
    else if (is(argv[1], "late_free")) late_free(w, wt, x, y), w_freed = true;
    else if (is(argv[1], "host_func")) host_func(w, wt, x, y);
    else if (is(argv[1], "handle_thread")) handle_thread(w);
    else if (is(argv[1], "capture_join")) capture_join(w, wt, x, y);
    else if (is(argv[1], "capture_fold")) capture_fold(w, wt, x, y);
    else if (is(argv[1], "racy")) racy(w);
    else return usage(argv[0]);
    CK(cudaDeviceSynchronize());
    CK(cudaFree(wt));
    CK(cudaFree(y));
    CK(cudaFree(x));
    if (!w_freed)
        CK(cudaFree(w));
    CKB(cublasDestroy(H));
    printf("done\n");
    return 0;
}
