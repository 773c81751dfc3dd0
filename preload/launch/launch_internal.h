/* Internal to the launch path: parameter layouts, packing, replays and the
 * producer step, shared by rule matches (launch.c) and learned transposes
 * (learning/learn_launch.c), so both defer and replay the same way. */
#ifndef TF_LAUNCH_INTERNAL_H
#define TF_LAUNCH_INTERNAL_H
#include "launch/launch.h"
#include "rules/rules.h"

#define TF_MAX_PARAMS 1024 /* far above what any kernel signature has */

/* Where each parameter lives in the packed bytes. */
typedef struct param_layout {
    int n;
    size_t off[TF_MAX_PARAMS], size[TF_MAX_PARAMS];
    size_t len;
} param_layout;

bool layout_from_route(const pl_launch *l, param_layout *p);
/* The parameter bytes, packed as the kernel sees them (malloc'd). */
unsigned char *launch_pack(const pl_launch *l, const param_layout *p);
/* A deep copy of the launch as a replay closure, and its issue on `stream`. */
tf_replay launch_replay_new(const pl_launch *l, const param_layout *p, const unsigned char *bytes, uint64_t dst);
int launch_issue(pl_launch_replay *r, uint64_t stream, const uint64_t *trigger);
/* Dimensions and stream the driver accepts (else l->why). */
bool launch_acceptable(pl_launch *l);
/* l->desc becomes a producer (launch.c). */
bool launch_produce(pl_launch *l, const param_layout *p, const unsigned char *bytes, bool *deferred);

/* learn_watch.c: which functions learning looks at closely. Every launch
 * notes its function among the last few (learn_recent, a few loads and
 * stores, true when it is watched); a GEMM operand whose writer is not
 * known makes the recent functions watched (learn_watch_recent); only
 * watched functions pay for signatures. learn_recent is in launch.h. */
bool learn_watched(const void *fn);
void learn_watch_recent(void);
/* Whether functions were launched since the recent ones were last watched. */
bool learn_recent_unwatched(void);

#endif
