/* The race detector's clocks and per-allocation history (race.h). */
#include "race.h"

#include <stdio.h>
#include <string.h>

enum { RACE_OFF, RACE_REPORT, RACE_ABORT };
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int mode;
static int agents;
static unsigned reported;

static void configure(void)
{
    const char *v = getenv("SIMCUDA_RACE");
    if (!v || !*v)
        return;
    if (strcmp(v, "report") == 0)
        mode = RACE_REPORT;
    else if (strcmp(v, "abort") == 0)
        mode = RACE_ABORT;
    else
        fprintf(stderr, "simcuda: SIMCUDA_RACE=%s is not report or abort; no race detection\n", v);
}

bool sim_race_on(void)
{
    pthread_once(&once, configure);
    return mode != RACE_OFF;
}

int sim_race_agent(void)
{
    if (!sim_race_on())
        return -1;
    if (agents == SIM_AGENTS) {
        fprintf(stderr, "simcuda: more than %d streams and threads; race detection stops here\n", SIM_AGENTS);
        mode = RACE_OFF;
        return -1;
    }
    return agents++;
}

void sim_vc_join(sim_vc *into, const sim_vc *from)
{
    for (int i = 0; i < agents; i++)
        if (from->c[i] > into->c[i])
            into->c[i] = from->c[i];
}

struct shadow {
    uintptr_t base;
    size_t size;
    struct sim_access *acc;
    size_t n;
};

#define HISTORY 64
static struct shadow *shadows;
static size_t nshadows;

static struct shadow *shadow_of(const void *p)
{
    void *base;
    size_t size;
    enum sim_mem_kind kind;
    if (!sim_lookup(p, &base, &size, &kind) || kind == SIM_MEM_HOST)
        return NULL;
    for (size_t i = 0; i < nshadows; i++)
        if (shadows[i].base == (uintptr_t)base)
            return &shadows[i];
    struct shadow *ns = realloc(shadows, (nshadows + 1) * sizeof *ns);
    struct sim_access *acc = calloc(HISTORY, sizeof *acc);
    if (!ns || !acc) {
        free(acc);
        if (ns)
            shadows = ns;
        return NULL;
    }
    shadows = ns;
    shadows[nshadows] = (struct shadow){(uintptr_t)base, size, acc, 0};
    return &shadows[nshadows++];
}

void sim_race_forget(const void *base, size_t size)
{
    (void)size;
    for (size_t i = 0; i < nshadows; i++)
        if (shadows[i].base == (uintptr_t)base) {
            free(shadows[i].acc);
            shadows[i] = shadows[--nshadows];
            return;
        }
}

static uintptr_t end_of(const struct sim_access *a)
{
    return a->base + (a->count - 1) * a->pitch + a->width;
}

/* First byte both touch, or 0. Walks the rows of the shorter one. */
static uintptr_t overlap(const struct sim_access *x, const struct sim_access *y)
{
    if (x->count > y->count) {
        const struct sim_access *t = x;
        x = y;
        y = t;
    }
    if (end_of(x) <= y->base || end_of(y) <= x->base)
        return 0;
    for (size_t r = 0; r < x->count; r++) {
        uintptr_t s = x->base + r * x->pitch, e = s + x->width; /* [s, e) */
        /* rows k of y with y0 + k p < e and y0 + k p + w > s */
        intptr_t lo = (intptr_t)s - (intptr_t)y->base - (intptr_t)y->width + 1;
        intptr_t hi = (intptr_t)e - 1 - (intptr_t)y->base;
        if (hi < 0)
            continue;
        size_t p = y->pitch ? y->pitch : 1;
        size_t kmin = lo <= 0 ? 0 : ((size_t)lo + p - 1) / p, kmax = (size_t)hi / p;
        if (kmax >= y->count)
            kmax = y->count - 1;
        if (kmin <= kmax) {
            uintptr_t ys = y->base + kmin * y->pitch;
            return ys > s ? ys : s;
        }
    }
    return 0;
}

/* One line per pair of operations (a kernel's writes are many ranges). */
static bool seen(const struct sim_access *old, const struct sim_access *now)
{
    static struct { char a[48], b[48]; CUstream sa, sb; } pairs[32];
    static size_t npairs;
    for (size_t i = 0; i < npairs; i++)
        if (pairs[i].sa == old->stream && pairs[i].sb == now->stream && !strcmp(pairs[i].a, old->op) &&
            !strcmp(pairs[i].b, now->op))
            return true;
    if (npairs < 32) {
        memcpy(pairs[npairs].a, old->op, sizeof old->op);
        memcpy(pairs[npairs].b, now->op, sizeof now->op);
        pairs[npairs].sa = old->stream;
        pairs[npairs++].sb = now->stream;
    }
    return false;
}

static void report(const struct sim_access *old, const struct sim_access *now, uintptr_t at)
{
    if (seen(old, now))
        return;
    if (reported++ < 20 || mode == RACE_ABORT)
        fprintf(stderr,
                "simcuda race: %s (%s, stream 0x%lx) and %s (%s, stream 0x%lx) are not ordered; both touch 0x%lx\n",
                old->op, old->write ? "write" : "read", (unsigned long)(uintptr_t)old->stream, now->op,
                now->write ? "write" : "read", (unsigned long)(uintptr_t)now->stream, (unsigned long)at);
    if (mode == RACE_ABORT)
        abort();
}

/* An older access the new one supersedes: ordered before it, and covered
 * by it (a contiguous write) or the same range the same way. */
static bool superseded(const struct sim_access *o, const struct sim_access *x, const sim_vc *vc)
{
    if (o->clock > vc->c[o->agent])
        return false;
    bool contiguous = x->count == 1 || x->pitch == x->width;
    if (x->write && contiguous && o->base >= x->base && end_of(o) <= end_of(x))
        return true;
    return o->write == x->write && o->base == x->base && o->width == x->width && o->pitch == x->pitch &&
           o->count == x->count;
}

static void remember(struct shadow *sh, const struct sim_access *x, const sim_vc *vc)
{
    size_t k = 0;
    for (size_t i = 0; i < sh->n; i++)
        if (!superseded(&sh->acc[i], x, vc))
            sh->acc[k++] = sh->acc[i];
    sh->n = k;
    if (sh->n == HISTORY) /* the oldest is forgotten */
        memmove(sh->acc, sh->acc + 1, --sh->n * sizeof *sh->acc);
    sh->acc[sh->n++] = *x;
}

void sim_race_access(struct sim_access *x, const sim_vc *vc)
{
    if (!x->count || !x->width || !sim_race_on())
        return;
    struct shadow *sh = shadow_of((const void *)x->base);
    if (!sh)
        return;
    for (size_t i = 0; i < sh->n; i++) {
        const struct sim_access *o = &sh->acc[i];
        if ((o->write || x->write) && o->agent != x->agent && o->clock > vc->c[o->agent]) {
            uintptr_t at = overlap(o, x);
            if (at)
                report(o, x, at);
        }
    }
    remember(sh, x, vc);
}
