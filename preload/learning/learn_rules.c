/* Learned transposes as rules: the shape as literals, the two pointers as
 * P@OFF fields, and a guard on every other parameter byte (if=P@OFF:TYPE=V),
 * so the rule matches only launches with the parameter values it was proven
 * on. A signature whose output view starts away from its pointer cannot be
 * written as a rule and is left out, with a comment. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/setup.h"
#include "core/state.h"
#include "learn/learn.h"
#include "learning/learn_rules.h"

#define LAYOUTS 64
#define LAYOUT_PARAMS 64

typedef struct layout { const void *fn; int n; size_t off[LAYOUT_PARAMS], size[LAYOUT_PARAMS]; } layout;
static layout layouts[LAYOUTS];
static int nlayouts;
static pthread_mutex_t layouts_lock = PTHREAD_MUTEX_INITIALIZER;

void pl_learn_layout_note(const void *fn, const size_t *offs, const size_t *sizes, int n)
{
    if (n > LAYOUT_PARAMS)
        return;
    pthread_mutex_lock(&layouts_lock);
    int i = 0;
    while (i < nlayouts && layouts[i].fn != fn)
        i++;
    if (i < LAYOUTS) {
        layouts[i].fn = fn;
        layouts[i].n = n;
        memcpy(layouts[i].size, sizes, (size_t)n * sizeof *sizes);
        memcpy(layouts[i].off, offs, (size_t)n * sizeof *offs);
        nlayouts += i == nlayouts;
    }
    pthread_mutex_unlock(&layouts_lock);
}

static const layout *layout_of(uint64_t fn)
{
    for (int i = 0; i < nlayouts; i++)
        if ((uint64_t)(uintptr_t)layouts[i].fn == fn)
            return &layouts[i];
    return NULL;
}

static void field(FILE *f, const char *key, const layout *L, const size_t *off, size_t at)
{
    for (int i = 0; i < L->n; i++)
        if (at >= off[i] && at < off[i] + L->size[i])
            fprintf(f, " %s=%d@%zu:ptr", key, i, at - off[i]);
}

static bool masked(const tf_learned *t, size_t at)
{
    return t->ptr_mask[at / 512] >> (at / 8 % 64) & 1;
}

/* One guard per 8, 4, 2 or 1 bytes of each parameter, skipping pointers. */
static void guards(FILE *f, const tf_learned *t, const layout *L, const size_t *off)
{
    static const char *const types[] = { NULL, "u8", "u16", NULL, "u32", NULL, NULL, NULL, "u64" };
    for (int i = 0; i < L->n; i++)
        for (size_t o = 0; o < L->size[i];) {
            size_t at = off[i] + o, w = 8;
            while (w > 1 && (o + w > L->size[i] || at % w))
                w /= 2;
            if (!masked(t, at)) {
                uint64_t v = 0;
                memcpy(&v, t->params + at, w);
                fprintf(f, " if=%d@%zu:%s=%" PRIu64, i, o, types[w], v);
            }
            o += w;
        }
}

static void write_one(const tf_learned *t, void *arg)
{
    FILE *f = arg;
    const layout *L = layout_of(t->fn);
    if (!L || t->out_delta || t->in_delta) {
        fprintf(f, "# %s: proven, but its %s cannot be written as a rule\n", t->name,
                L ? "output view starts away from its pointer" : "parameter layout");
        return;
    }
    const size_t *off = L->off;
    fprintf(f, "%s", t->name);
    field(f, "in", L, off, t->in_off);
    field(f, "out", L, off, t->out_off);
    fprintf(f, " rows=#%" PRId64 " cols=#%" PRId64 " elem=%u ld_in=#%" PRId64 " ld_out=#%" PRId64, t->dst.rows,
            t->dst.cols, t->dst.elem, t->src.ld, t->dst.ld);
    if (t->dst.batch > 1)
        fprintf(f, " batch=#%" PRId64 " stride_in=#%" PRId64 " stride_out=#%" PRId64, t->dst.batch, t->src.stride,
                t->dst.stride);
    if (t->module)
        fprintf(f, " module=%016" PRIx64, t->module);
    fprintf(f, " threads=%u", t->grid[0] * t->grid[1] * t->grid[2] * t->block[0] * t->block[1] * t->block[2]);
    guards(f, t, L, off);
    fprintf(f, " sig=");
    for (int i = 0; i < L->n; i++)
        fprintf(f, "%s%zu", i ? "," : "", L->size[i]);
    fprintf(f, "\n");
}

void pl_learn_write_rules(tf_engine *e, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "transfold: TRANSFOLD_LEARN_OUT=%s cannot be written; nothing learned was saved\n", path);
        return;
    }
    fprintf(f, "# kernel transposes learned by transfold, proven on the data (transfold learn)\n");
    pthread_mutex_lock(&layouts_lock);
    tf_learn_each_trusted(e, write_one, f);
    pthread_mutex_unlock(&layouts_lock);
    fclose(f);
}

/* At exit (core/setup.h): what was learned, when TRANSFOLD_LEARN_OUT asks. */
static void exiting(tf_engine *e)
{
    if (pl_env_now.learn_out)
        pl_learn_write_rules(e, pl_env_now.learn_out);
}

PL_SETUP(learn_rules, .exiting = exiting);
