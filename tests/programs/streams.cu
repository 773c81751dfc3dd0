// Streams a deferred transpose lives on: how they are named, destroyed,
// and shared between threads.
// Usage: streams CASE   (tests/e2e/cases.sh says what transfold must do)
//
//   destroyed_stream   kernel transpose on a created stream, the stream
//                      destroyed, Wt then read by a GEMM on stream 0: the
//                      transpose must run before the stream dies
//   legacy_alias       transposes issued on cudaStreamLegacy (a geam through
//                      the handle, a kernel launch) read by GEMMs on stream
//                      0: the same stream, so they fold
//   per_thread         thread A transposes on its per-thread default stream,
//                      thread B reads Wt on its own: different streams, no
//                      fold; the transpose runs before B's GEMM
//   last_error         an error the program has not fetched yet survives a
//                      deferral, a fold and a replay
//   set_stream         geam on stream s1, then the handle moved to s2 where a
//                      GEMM reads Wt: no fold across streams; the replay runs
//                      on s1 and leaves the handle on s2
//   bad_launch         transpose launches the driver rejects (4096 threads
//                      a block; a destroyed stream): their errors must reach
//                      the program, not vanish into a deferral
//
// Each case prints the results and what cudaGetLastError returns at the end.
#include <pthread.h>

#include "common.h"
#include "kernels.cuh"

static cublasHandle_t H;
static const float ONE = 1.0f, ZERO = 0.0f;
enum { ROWS = 24, COLS = 16, M = 10 };

// Y (ROWS x M) = Wt (col-major ROWS x COLS, ld ROWS) * X (COLS x M) on h.
static float *consume(cublasHandle_t h, const float *wt)
{
    float *x = dev_f32(M * COLS, 2), *y = (float *)dev_zero(M * ROWS * sizeof(float));
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ROWS, M, COLS, &ONE, wt, ROWS, x, COLS, &ZERO, y, ROWS));
    CK(cudaFree(x));
    return y;
}

// Wt = transpose of W (row-major ROWS x COLS) by cublasSgeam on h's stream.
static void geam_transpose(cublasHandle_t h, float *wt, const float *w)
{
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, ROWS, COLS, &ONE, w, COLS, &ZERO, w, COLS, wt, ROWS));
}

static void destroyed_stream(const float *w, float *wt)
{
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    transpose_naive<<<grid2d(ROWS, COLS), dim3(TILE, TILE), 0, s>>>(wt, w, ROWS, COLS);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamDestroy(s));
    float *y = consume(H, wt);
    show_dev("Y", y, M * ROWS, 4);
}

static void legacy_alias(const float *w, float *wt)
{
    CKB(cublasSetStream(H, cudaStreamLegacy));
    geam_transpose(H, wt, w);
    CKB(cublasSetStream(H, 0));
    float *y1 = consume(H, wt);
    transpose_naive<<<grid2d(ROWS, COLS), dim3(TILE, TILE), 0, cudaStreamLegacy>>>(wt, w, ROWS, COLS);
    CK(cudaGetLastError());
    float *y2 = consume(H, wt);
    show_dev("Y1", y1, M * ROWS, 4);
    show_dev("Y2", y2, M * ROWS, 4);
}

typedef struct per_thread_job { const float *w; float *wt; float *y; } per_thread_job;

static void *thread_a(void *arg)
{
    per_thread_job *j = (per_thread_job *)arg;
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, cudaStreamPerThread));
    geam_transpose(h, j->wt, j->w);
    CK(cudaStreamSynchronize(cudaStreamPerThread));
    return NULL; // h stays: a replay may need it
}

static void *thread_b(void *arg)
{
    per_thread_job *j = (per_thread_job *)arg;
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, cudaStreamPerThread));
    j->y = consume(h, j->wt);
    CK(cudaStreamSynchronize(cudaStreamPerThread));
    CKB(cublasDestroy(h));
    return NULL;
}

static void per_thread(const float *w, float *wt)
{
    per_thread_job j = { w, wt, NULL };
    pthread_t t;
    pthread_create(&t, NULL, thread_a, &j);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, thread_b, &j);
    pthread_join(t, NULL);
    show_dev("Y", j.y, M * ROWS, 4);
}

static void last_error(const float *w, float *wt)
{
    STATUS(cudaSetDevice(99)); // left for cudaGetLastError below
    geam_transpose(H, wt, w);
    float *y = consume(H, wt);
    show_dev("Wt", wt, ROWS * COLS, 4); // the replay
    show_dev("Y", y, M * ROWS, 4);
}

static void set_stream(const float *w, float *wt)
{
    cudaStream_t s1, s2, now = NULL;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreate(&s2));
    CKB(cublasSetStream(H, s1));
    geam_transpose(H, wt, w);
    CKB(cublasSetStream(H, s2));
    float *y = consume(H, wt);
    CKB(cublasGetStream(H, &now));
    printf("handle still on s2: %d\n", now == s2);
    CK(cudaStreamSynchronize(s2));
    show_dev("Y", y, M * ROWS, 4);
    CKB(cublasSetStream(H, 0));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
}

static void bad_launch(const float *w, float *wt)
{
    transpose_naive<<<grid2d(ROWS, COLS), dim3(64, 64)>>>(wt, w, ROWS, COLS);
    STATUS(cudaGetLastError());
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamDestroy(s));
    transpose_naive<<<grid2d(ROWS, COLS), dim3(TILE, TILE), 0, s>>>(wt, w, ROWS, COLS);
    STATUS(cudaGetLastError());
    float *y = consume(H, wt);
    show_dev("Y", y, M * ROWS, 4);
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    CKB(cublasCreate(&H));
    float *w = dev_f32(ROWS * COLS, 1);
    float *wt = (float *)dev_zero(ROWS * COLS * sizeof(float));
    if (is(argv[1], "destroyed_stream")) destroyed_stream(w, wt);
    else if (is(argv[1], "legacy_alias")) legacy_alias(w, wt);
    else if (is(argv[1], "per_thread")) per_thread(w, wt);
    else if (is(argv[1], "last_error")) last_error(w, wt);
    else if (is(argv[1], "bad_launch")) bad_launch(w, wt);
    else if (is(argv[1], "set_stream")) set_stream(w, wt);
    else return usage(argv[0]);
    STATUS(cudaGetLastError());
    CK(cudaFree(wt));
    CK(cudaFree(w));
    CKB(cublasDestroy(H));
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
