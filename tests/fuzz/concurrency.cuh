// Concurrency generators of the fuzzer (included by fuzz.cu after its
// operations): work forked onto a non-blocking stream and joined back by
// events, host functions, stream captures with a fork and a join inside,
// and work issued from another host thread on its per-thread default
// stream. Every one is ordered by CUDA alone (events, stream order), never
// by host timing, so a run is race-free whatever the schedule: the stand-in
// runs it asynchronously (SIMCUDA_ASYNC) with its race detector on
// (tests/fuzz/run.sh), under a different schedule for each mode.
#include <atomic>
#include <pthread.h>

static cudaStream_t NB[2];         // non-blocking streams for forks and captures
static std::atomic<int> HOST_FNS;  // host functions that ran
static void (*const FORKABLE[])(void) = {op_geam, op_kernel_transpose, op_gemm, op_gemm, op_memset, op_scale};

// Runs `op` with `s` as the current stream (handles moved there and back).
static void on_stream(cudaStream_t s, void (*op)(void))
{
    cudaStream_t saved = STREAMS[CUR];
    STREAMS[CUR] = s;
    CKB(cublasSetStream(HS[0], s));
    CKB(cublasSetStream(HS[1], s));
    op();
    STREAMS[CUR] = saved;
    CKB(cublasSetStream(HS[0], saved));
    CKB(cublasSetStream(HS[1], saved));
}

// `to` waits for everything `from` has queued so far.
static void order(cudaStream_t from, cudaStream_t to)
{
    cudaEvent_t e;
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CK(cudaEventRecord(e, from));
    CK(cudaStreamWaitEvent(to, e, 0));
    CK(cudaEventDestroy(e));
}

static void op_fork(void)
{
    cudaStream_t s = NB[rnd(2)];
    void (*op)(void) = FORKABLE[rnd(sizeof FORKABLE / sizeof *FORKABLE)];
    say("fork onto a non-blocking stream");
    order(STREAMS[CUR], s);
    on_stream(s, op);
    order(s, STREAMS[CUR]);
    say("join");
}

static void CUDART_CB count_host_fn(void *) { HOST_FNS++; }

static void op_host_fn(void)
{
    say("host function -> %d", (int)cudaLaunchHostFunc(STREAMS[CUR], count_host_fn, NULL));
}

// A transpose and one GEMM captured into a graph, the GEMM (or the
// transpose) on a second stream joined in by events; the graph then runs
// once on the current stream. One GEMM only: device scalars are written
// when the call is made and read when the graph runs.
static void op_capture(void)
{
    cudaStream_t c = NB[0], side = NB[1];
    cudaGraph_t g = NULL;
    cudaGraphExec_t ge = NULL;
    bool side_gemm = chance(50);
    burst = 0;
    int st = (int)cudaStreamBeginCapture(c, cudaStreamCaptureModeRelaxed);
    say("capture begins -> %d", st);
    if (st != 0) return;
    on_stream(c, chance(70) ? op_geam : op_kernel_transpose);
    order(c, side);
    on_stream(side_gemm ? side : c, op_gemm);
    order(side, c);
    burst = 0;
    int st2 = (int)cudaStreamEndCapture(c, &g);
    int st3 = st2 ? -1 : (int)cudaGraphInstantiate(&ge, g, 0);
    int st4 = st3 ? -1 : (int)cudaGraphLaunch(ge, STREAMS[CUR]);
    say("capture ends, graph launched -> %d %d %d", st2, st3, st4);
    if (ge) CK(cudaGraphExecDestroy(ge));
    if (g) CK(cudaGraphDestroy(g));
}

// Another host thread issues a transpose and a GEMM on its per-thread
// default stream, ordered after the current stream and before whatever
// follows by events; this thread waits for it meanwhile.
static void *thread_ops(void *arg)
{
    cudaStream_t main_stream = *(cudaStream_t *)arg;
    order(main_stream, cudaStreamPerThread);
    on_stream(cudaStreamPerThread, op_geam);
    on_stream(cudaStreamPerThread, op_gemm);
    order(cudaStreamPerThread, main_stream);
    return NULL;
}

static void op_thread(void)
{
    cudaStream_t s = STREAMS[CUR];
    pthread_t t;
    say("thread begins");
    burst = 0;
    pthread_create(&t, NULL, thread_ops, &s);
    pthread_join(t, NULL);
    say("thread ends");
}

static void concurrency_setup(void)
{
    for (cudaStream_t &s : NB) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
}

static void concurrency_teardown(void)
{
    CK(cudaDeviceSynchronize());
    printf("host functions ran: %d\n", HOST_FNS.load());
    for (cudaStream_t &s : NB) CK(cudaStreamDestroy(s));
}
