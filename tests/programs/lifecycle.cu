// A deferred transpose across the ends of a process: exit handlers, exit
// from another thread, fork.
// Usage: lifecycle CASE   (tests/e2e/cases.sh says what transfold must do)
//
//   atexit_readback    an exit handler registered before the first CUDA
//                      call copies Wt to the host: the transpose must run
//                      then, not be dropped at exit before the handler
//   thread_exit        a second thread calls exit() while Wt is pending
//   fork_child         a fork while Wt is pending; the child exits without
//                      touching CUDA, the parent then reads Wt
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static cublasHandle_t H;
static const float ONE = 1.0f, ZERO = 0.0f;
enum { ROWS = 24, COLS = 16 };
static float *Wt;

static void transpose(const float *w, float *wt)
{
    CKB(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, ROWS, COLS, &ONE, w, COLS, &ZERO, w, COLS, wt, ROWS));
}

static void show_wt(void)
{
    show_dev("Wt", Wt, ROWS * COLS, 4);
    fflush(stdout);
}

static void *exit_from_thread(void *)
{
    printf("thread exits\n");
    fflush(stdout);
    exit(0);
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    if (is(argv[1], "atexit_readback")) atexit(show_wt);
    CKB(cublasCreate(&H));
    float *w = dev_f32(ROWS * COLS, 1);
    Wt = (float *)dev_zero(ROWS * COLS * sizeof(float));
    transpose(w, Wt);
    if (is(argv[1], "atexit_readback")) {
        printf("main returns\n");
        return 0;
    } else if (is(argv[1], "thread_exit")) {
        pthread_t t;
        pthread_create(&t, NULL, exit_from_thread, NULL);
        pthread_join(t, NULL);
    } else if (is(argv[1], "fork_child")) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) exit(0);
        int status = 0;
        waitpid(pid, &status, 0);
        printf("child exit status %d\n", WEXITSTATUS(status));
        show_wt();
    } else {
        return usage(argv[0]);
    }
    CK(cudaFree(Wt));
    printf("done\n");
    return 0;
}
