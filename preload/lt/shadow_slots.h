/* The shadow slots: what transfold knows of each live cuBLASLt descriptor,
 * keyed by its address, in a fixed pool.
 *
 * Frameworks make descriptors per call (PyTorch's Lt path: five created,
 * up to ten attributes set and five destroyed around each matmul), so
 * create, set and destroy must cost a few dozen instructions: no lock, no
 * allocation. A slot is claimed by compare-and-swap on its key inside a
 * bounded probe window; its writers (one descriptor's calls, in practice
 * from one thread) take turns through the slot's sequence number, odd
 * while one writes; readers copy without waiting and retry when the number
 * moved (a seqlock). When the window holds no free slot the descriptor
 * gets no shadow: callers treat it as one made before transfold was active
 * (unknown, the conservative answer). Plain C: tests/unit builds it. */
#ifndef PL_LT_SHADOW_SLOTS_H
#define PL_LT_SHADOW_SLOTS_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lt/attrs.h"

#define LT_SLOTS 1024 /* a power of two */
#define LT_SLOT_PROBE 16

/* Fills a claimed slot's attributes while its writer holds it. */
typedef void (*lt_slot_fill)(lt_attrs *a, const void *arg);

/* A fresh shadow of `kind` for desc: the creation arguments `fill` writes.
 * False when the pool had no slot for it (then desc has no shadow). */
bool lt_slot_reset(int kind, const void *desc, lt_slot_fill fill, const void *arg);
/* One attribute set on desc's shadow; nothing when it has none. */
void lt_slot_set(const void *desc, int32_t id, const void *buf, size_t size);
/* desc is destroyed (or made again untracked): its slot is free again. */
void lt_slot_forget(const void *desc);
/* Copies desc's shadow out when it has one of that kind and it is not
 * opaque; returns its version (nonzero), else 0. The version is unique to
 * the shadow's content across all slots and all time. */
uint64_t lt_slot_get(int kind, const void *desc, lt_attrs *out);
/* The version lt_slot_get would return, without the copy. */
uint64_t lt_slot_version(int kind, const void *desc);
/* Whether desc has a slot at all (of any kind, opaque or not). */
bool lt_slot_exists(const void *desc);

/* Slots in use: while none is, a descriptor call has no shadow to keep
 * current and passes straight through. Inline: every such call reads it. */
extern __attribute__((visibility("hidden"))) _Atomic long lt_slots_live; /* hidden: no GOT load */
static inline bool lt_slot_any(void) { return atomic_load_explicit(&lt_slots_live, memory_order_acquire) != 0; }

/* Changes with every reset, set and forget (any slot). */
extern _Atomic uint64_t lt_shadow_epoch_now;

#endif
