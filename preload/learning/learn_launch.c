/* An unknown launch while learning (TRANSFOLD_LEARN=1, log mode): the
 * engine notes its signature; a candidate's launch is measured first (and
 * then runs as issued); a trusted one is a producer exactly like a rule
 * match. Launches whose parameter layout the driver cannot tell (packed
 * `extra` buffers) are not learned. */
#include <stdlib.h>
#include <string.h>

#include "calls/describe.h"
#include "core/setup.h"
#include "core/state.h"
#include "launch/names.h"
#include "learn/learn.h"
#include "learning/learn_rules.h"
#include "learning/learning.h"

static void measure_and_judge(pl_launch *l, const param_layout *p, const unsigned char *bytes,
                              const tf_learn_launch *ll, const tf_learn_plan *plan)
{
    tf_learn_obs o;
    unsigned char *store = NULL;
    memset(&o, 0, sizeof o);
    learn_measure(l, p, bytes, plan, &o, &store);
    if (o.status >= 0) { /* negative: not measured this time (capture), no verdict */
        tf_engine *e = pl_lock();
        if (e)
            tf_learn_measured(e, ll, plan, &o);
        pl_unlock(e);
    }
    free(store);
}

static bool learn_step(pl_launch *l, const param_layout *p, const unsigned char *bytes, const tf_learn_launch *ll,
                       bool *deferred)
{
    tf_learn_plan plan;
    tf_engine *e = pl_lock();
    tf_learn_action a = e ? tf_learn_launch_begin(e, ll, &plan) : TF_LEARN_RUN;
    bool described = a == TF_LEARN_PRODUCE && tf_learn_describe(e, ll, &l->desc);
    pl_unlock(e);
    if (a != TF_LEARN_RUN)
        pl_learn_layout_note(l->fn, p->off, p->size, p->n);
    if (a == TF_LEARN_MEASURE)
        measure_and_judge(l, p, bytes, ll, &plan);
    /* A deferral reports success at once: only for launches the driver accepts. */
    return described && launch_acceptable(l) && launch_produce(l, p, bytes, deferred);
}

static bool learn_at_launch(pl_launch *l, bool *deferred)
{
    param_layout *p = malloc(sizeof *p);
    unsigned char *bytes = NULL;
    bool produced = false;
    if (p && l->args && layout_from_route(l, p) && p->len <= TF_LEARN_MAX_PARAM_BYTES &&
        (bytes = launch_pack(l, p))) {
        tf_learn_launch ll = { .fn = TF_ADDR(l->fn), .module = pl_module_get(l->fn), .name = l->name,
                               .params = bytes, .len = p->len };
        memcpy(ll.grid, l->grid, sizeof ll.grid);
        memcpy(ll.block, l->block, sizeof ll.block);
        produced = learn_step(l, p, bytes, &ll, deferred);
    }
    free(bytes);
    free(p);
    return produced;
}

/* Once the engine is made with TRANSFOLD_LEARN on (core/setup.h): the
 * engine's learning, with the launch path's watch list as its knobs, and
 * this file's look at launches registered with launch.c before learning
 * is published as on. */
static void created(tf_engine *e)
{
    if (!pl_env_now.learn)
        return;
    tf_learn_knobs k = { pl_env_now.learn_k, pl_env_now.learn_max_bytes, pl_env_now.learn_max_candidates, 1024,
                         learn_watch_recent, learn_recent_unwatched };
    tf_learn_setup(e, &k);
    pl_launch_learn = learn_at_launch;
    pl_learning_now = tf_learn_on(e);
}

PL_SETUP(learn_launch, .created = created);
