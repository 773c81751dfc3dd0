/* Stand-in-only contract between the stand-in's libcuda and its cuBLAS and
 * cuBLASLt: device work those libraries do is handed to libcuda as a task,
 * so it runs on its stream in the scheduler's order (SIMCUDA_ASYNC), is
 * recorded by a stream capture, and is seen by the race detector
 * (SIMCUDA_RACE). libcuda exports simcudaEnqueue, simcudaIsDevice and
 * simcudaRunsNow; the
 * libraries reach them through dlsym, as they reach nothing else of it. */
#ifndef SIMCUDA_TASK_H
#define SIMCUDA_TASK_H
#include <stddef.h>

/* `count` rows of `width` bytes, `pitch` bytes apart, read or written. */
typedef struct simcuda_span {
    const void *base;
    size_t width, pitch, count;
    int write;
} simcuda_span;

typedef struct simcuda_task {
    const char *op;             /* names the work in race reports */
    int (*run)(void *arg);      /* does the work (and writes its trace line); status 0 = success */
    void (*release)(void *arg); /* frees arg once no queue or graph holds the task */
    void *arg;
    const simcuda_span *spans;  /* the memory it touches (copied) */
    size_t nspans;
} simcuda_task;

/* Queues `t` on `stream` (per_thread: a NULL stream is the per-thread
 * default stream). When the work runs at once (synchronous stand-in, no
 * capture), *status receives run's result; otherwise 0. On an error the
 * task is released and nothing runs. */
typedef int (*simcuda_enqueue_fn)(void *stream, int per_thread, const simcuda_task *t, int *status);
/* Whether p lies in device memory (its value is then read when work runs). */
typedef int (*simcuda_is_device_fn)(const void *p);
/* Whether work on `stream` would run at once (synchronous stand-in, no
 * capture): the library may then run it itself, without a task. */
typedef int (*simcuda_runs_now_fn)(void *stream);

#endif
