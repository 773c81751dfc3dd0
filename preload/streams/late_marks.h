/* CUDA events behind the engine's late-read marks (analysis/engine/late.c). */
#ifndef TF_LATE_MARKS_H
#define TF_LATE_MARKS_H
#include "engine.h"

tf_sync_ops pl_late_marks(void);

#endif
