/* The shadow table, under a lock of its own so descriptor traffic
 * (frameworks make descriptors per call) never waits on the engine. A hash
 * by descriptor address: O(1) a lookup however many descriptors are live. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Keys are descriptor addresses: a multiplicative hash is enough, and far
 * cheaper than uthash's default on the per-call lookups. */
#define HASH_FUNCTION(keyptr, keylen, hashv)                              \
    do {                                                                  \
        uint64_t lt_k_;                                                   \
        memcpy(&lt_k_, (keyptr), sizeof lt_k_);                           \
        (hashv) = (unsigned)((lt_k_ * 0x9E3779B97F4A7C15ull) >> 32);      \
        (void)(keylen);                                                   \
    } while (0)
#include <uthash.h>

#include "lt_lock.h"
#include "lt_shadow.h"

typedef struct lt_shadow {
    const void *desc;
    lt_kind kind;
    lt_attrs attrs;
    uint64_t version;
    UT_hash_handle hh;
} lt_shadow;

static lt_shadow *lt_shadows;
static uint64_t lt_last_version; /* under LT_LOCK_SHADOW */
static _Atomic uint64_t lt_epoch; /* bumped by every change to any shadow */

uint64_t lt_shadow_epoch(void)
{
    return atomic_load_explicit(&lt_epoch, memory_order_acquire);
}

static lt_shadow *find(const void *desc)
{
    lt_shadow *s = NULL;
    HASH_FIND_PTR(lt_shadows, &desc, s);
    return s;
}

void lt_shadow_reset(lt_kind kind, const void *desc, const lt_attrs *initial)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = find(desc);
    if (!s && (s = malloc(sizeof *s))) {
        s->desc = desc;
        HASH_ADD_PTR(lt_shadows, desc, s);
    }
    if (s) {
        s->kind = kind;
        lt_attrs_copy(&s->attrs, initial);
        s->version = ++lt_last_version;
    }
    atomic_fetch_add_explicit(&lt_epoch, 1, memory_order_release);
    lt_unlock(LT_LOCK_SHADOW);
}

void lt_shadow_set(const void *desc, int32_t id, const void *buf, size_t size)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = find(desc);
    if (s) {
        lt_attrs_set(&s->attrs, id, buf, size);
        s->version = ++lt_last_version;
    }
    atomic_fetch_add_explicit(&lt_epoch, 1, memory_order_release);
    lt_unlock(LT_LOCK_SHADOW);
}

void lt_shadow_forget(const void *desc)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = find(desc);
    if (s) {
        HASH_DEL(lt_shadows, s);
        free(s);
    }
    atomic_fetch_add_explicit(&lt_epoch, 1, memory_order_release);
    lt_unlock(LT_LOCK_SHADOW);
}

bool lt_shadow_get(lt_kind kind, const void *desc, lt_attrs *out)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = desc ? find(desc) : NULL;
    bool ok = s && s->kind == kind && !s->attrs.opaque;
    if (ok)
        lt_attrs_copy(out, &s->attrs);
    lt_unlock(LT_LOCK_SHADOW);
    return ok;
}

void lt_shadow_versions(int n, const lt_kind *kinds, const void *const *descs, uint64_t *out)
{
    lt_lock(LT_LOCK_SHADOW);
    for (int i = 0; i < n; i++) {
        lt_shadow *s = descs[i] ? find(descs[i]) : NULL;
        out[i] = s && s->kind == kinds[i] && !s->attrs.opaque ? s->version : 0;
    }
    lt_unlock(LT_LOCK_SHADOW);
}
