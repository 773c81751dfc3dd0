/* Shadow descriptors: what transfold knows of each cuBLASLt descriptor the
 * program made, keyed by the descriptor's address.
 *
 * Created by Create/Init, updated by each successful SetAttribute, dropped
 * by Destroy. Descriptors made before transfold was active, or inside
 * another library call, have no shadow; callers treat them as unknown. */
#ifndef TF_LT_SHADOW_H
#define TF_LT_SHADOW_H
#include "lt_attrs.h"

typedef enum lt_kind { LT_MATMUL, LT_LAYOUT, LT_PREF, LT_TRANSFORM } lt_kind;

/* A fresh shadow holding the creation arguments as attributes. */
void lt_shadow_reset(lt_kind kind, const void *desc, const lt_attrs *initial);
void lt_shadow_set(const void *desc, int32_t id, const void *buf, size_t size);
void lt_shadow_forget(const void *desc);
/* Copies the shadow out; false when there is none of that kind or it is
 * opaque. */
bool lt_shadow_get(lt_kind kind, const void *desc, lt_attrs *out);
/* The version of each of n shadows (kinds[i], descs[i]): a number unique to
 * its current content across all shadows and all time, changed by every
 * Create/Init and SetAttribute; 0 when lt_shadow_get would fail. Decoded
 * snapshots keyed on versions stay valid while the versions do. */
/* A number that changes whenever any shadow does (reset, set, forget): a
 * caller that read it before checking versions may skip the check while
 * it stays the same. */
uint64_t lt_shadow_epoch(void);
void lt_shadow_versions(int n, const lt_kind *kinds, const void *const *descs, uint64_t *out);

#endif
