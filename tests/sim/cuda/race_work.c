/* What each kind of work reads and writes, for the race detector (race.h). */
#include "race.h"

#include <stdio.h>
#include <string.h>

/* The work now running (one at a time: the scheduler's lock is held). */
static const sim_vc *cur_vc;
static int cur_agent;

static void touch(const struct sim_work *w, const char *op, const void *base, size_t width, size_t pitch,
                  size_t count, bool write)
{
    if (!base)
        return;
    struct sim_access a = {(uintptr_t)base, width, pitch ? pitch : width, count, write, cur_agent,
                       cur_vc->c[cur_agent], w->stream, ""};
    snprintf(a.op, sizeof a.op, "%s", op);
    sim_race_access(&a, cur_vc);
}

/* A kernel's footprint: every allocation a parameter points into, as it
 * was before the launch. A parameter larger than a pointer (a struct,
 * such as ATen's closures holding their tensors' data pointers) counts
 * each pointer-aligned word in it that points into an allocation. */
struct before { void *base; size_t size; unsigned char *copy; };
static struct before kept[16];
static size_t nkept;

static void keep(void *p)
{
    void *base;
    size_t size;
    enum sim_mem_kind kind;
    if (nkept == 16 || !sim_lookup(p, &base, &size, &kind) || kind == SIM_MEM_HOST)
        return;
    for (size_t i = 0; i < nkept; i++)
        if (kept[i].base == base)
            return;
    unsigned char *copy = malloc(size);
    if (!copy)
        return;
    memcpy(copy, base, size);
    kept[nkept++] = (struct before){base, size, copy};
}

static void kernel_before(const struct sim_work *w)
{
    const size_t *sizes = w->u.kernel.f->param_sizes;
    nkept = 0;
    for (size_t i = 0; sizes && sizes[i]; i++)
        for (size_t off = 0; off + sizeof(void *) <= sizes[i]; off += sizeof(void *)) {
            void *p;
            memcpy(&p, (const char *)w->u.kernel.params[i] + off, sizeof p);
            keep(p);
        }
}

/* What the twin says it reads, else every allocation kept. */
static void kernel_reads(const struct sim_work *w)
{
    const struct CUfunc_st *f = w->u.kernel.f;
    simcuda_range r[16];
    if (!f->reads) {
        for (size_t i = 0; i < nkept; i++)
            touch(w, f->name, kept[i].base, kept[i].size, kept[i].size, 1, false);
        return;
    }
    size_t n = f->reads(&w->u.kernel.l, w->u.kernel.params, r, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        touch(w, f->name, r[i].base, r[i].bytes, r[i].bytes, 1, false);
}

/* Changed bytes are written. */
static void kernel_after(const struct sim_work *w)
{
    const char *op = w->u.kernel.f->name;
    kernel_reads(w);
    for (size_t i = 0; i < nkept; i++) {
        const unsigned char *now = kept[i].base, *was = kept[i].copy;
        size_t n = kept[i].size, s = 0;
        while (s < n) {
            if (now[s] == was[s]) {
                s++;
                continue;
            }
            size_t e = s;
            while (e < n && now[e] != was[e])
                e++;
            touch(w, op, now + s, e - s, e - s, 1, true);
            s = e;
        }
        free(kept[i].copy);
    }
    nkept = 0;
}

static void task_access(const struct sim_work *w)
{
    size_t n;
    const simcuda_span *sp = sim_task_spans(w->u.task.t, &n);
    for (size_t i = 0; i < n; i++)
        touch(w, sim_task_op(w->u.task.t), sp[i].base, sp[i].width, sp[i].pitch, sp[i].count, sp[i].write);
}

void sim_race_before(const struct sim_work *w, const sim_vc *vc, int agent)
{
    cur_vc = vc;
    cur_agent = agent;
    switch (w->kind) {
    case SIM_WORK_COPY:
        touch(w, w->op, w->u.copy.src, w->u.copy.n, 0, 1, false);
        touch(w, w->op, w->u.copy.dst, w->u.copy.n, 0, 1, true);
        break;
    case SIM_WORK_COPY2D:
        touch(w, w->op, w->u.copy2d.src, w->u.copy2d.width, w->u.copy2d.spitch, w->u.copy2d.height, false);
        touch(w, w->op, w->u.copy2d.dst, w->u.copy2d.width, w->u.copy2d.dpitch, w->u.copy2d.height, true);
        break;
    case SIM_WORK_SET:
    case SIM_WORK_SET2D:
        touch(w, w->op, w->u.set.dst, w->u.set.width * w->u.set.elem, w->u.set.pitch, w->u.set.height, true);
        break;
    case SIM_WORK_KERNEL:
        kernel_before(w);
        break;
    case SIM_WORK_TASK:
        task_access(w);
        break;
    case SIM_WORK_FREE: {
        void *base;
        size_t size;
        if (sim_lookup(w->u.free.ptr, &base, &size, NULL))
            touch(w, w->op, base, size, size, 1, true);
        break;
    }
    case SIM_WORK_HOST:
        break;
    }
}

void sim_race_after(const struct sim_work *w)
{
    if (w->kind == SIM_WORK_KERNEL)
        kernel_after(w);
    if (w->kind == SIM_WORK_FREE)
        sim_race_forget(w->u.free.ptr, 0);
}
