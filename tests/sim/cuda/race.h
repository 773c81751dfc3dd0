/* The race detector (SIMCUDA_RACE=report|abort): happens-before over the
 * agents that issue or run device work (each stream's queue and each host
 * thread), as vector clocks, checked per byte range of device memory. Two
 * accesses to overlapping bytes, at least one a write, conflict; when
 * neither happens before the other the pair is reported, both operations
 * named. Called with the scheduler's lock held. */
#ifndef SIM_CUDA_RACE_H
#define SIM_CUDA_RACE_H
#include "work.h"

#define SIM_AGENTS 256

typedef struct sim_vc { uint32_t c[SIM_AGENTS]; } sim_vc;

SIM_HIDDEN void sim_vc_join(sim_vc *into, const sim_vc *from);

/* SIMCUDA_RACE set (report or abort). */
SIM_HIDDEN bool sim_race_on(void);
/* A new agent's index; -1 once SIM_AGENTS are taken (the detector then
 * turns itself off, saying so once). */
SIM_HIDDEN int sim_race_agent(void);

/* The accesses of work about to run at clock `vc` (of agent `agent`, on
 * `stream`): checked against earlier ones, then remembered. Kernels touch
 * memory the stand-in cannot enumerate up front: sim_race_before keeps a
 * copy of every allocation a parameter points into and sim_race_after
 * records the bytes that changed as written, the rest as read. */
SIM_HIDDEN void sim_race_before(const struct sim_work *w, const sim_vc *vc, int agent);
SIM_HIDDEN void sim_race_after(const struct sim_work *w);
/* One remembered access: `count` rows of `width` bytes, `pitch` apart. */
struct sim_access {
    uintptr_t base;
    size_t width, pitch, count;
    bool write;
    int agent;
    uint32_t clock;
    CUstream stream;
    char op[48];
};
/* Checks an access against what its allocation remembers, then remembers it. */
SIM_HIDDEN void sim_race_access(struct sim_access *x, const sim_vc *vc);

/* Memory freed or newly allocated: its history is forgotten. */
SIM_HIDDEN void sim_race_forget(const void *base, size_t size);

#endif
