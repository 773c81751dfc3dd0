/* Internal to learning/: the measurement learn_launch.c asks of
 * learn_measure.c. */
#ifndef TF_LEARNING_H
#define TF_LEARNING_H

#include "launch/launch_internal.h"

/* Runs the launch twice over sentinel-filled output with
 * everything reachable snapshotted and restored; the device is as before. */
struct tf_learn_plan;
struct tf_learn_obs;
void learn_measure(pl_launch *l, const param_layout *p, const unsigned char *bytes, const struct tf_learn_plan *plan,
                   struct tf_learn_obs *o, unsigned char **store);

#endif
