/* The shadow slots (shadow_slots.h). */
#include "lt/shadow_slots.h"
#include <pthread.h>
#include <stddef.h>
#include <string.h>

_Static_assert(sizeof(lt_attr) % 4 == 0 && offsetof(lt_attrs, a) % 4 == 0, "copied as 32-bit words");

/* Key values besides descriptor addresses: never claimed, and freed (a
 * probe goes on past it: a key further on may have probed through it). */
#define KEY_EMPTY ((uintptr_t)0)
#define KEY_FREED ((uintptr_t)1)
#define SEQ_LIMIT 1000000 /* reader retries before giving up (answers "no shadow") */

typedef struct lt_slot {
    _Atomic uintptr_t key;
    _Atomic uint64_t seq; /* odd while a writer holds the slot; +2 per change */
    int kind;
    lt_attrs attrs;
} lt_slot;

static lt_slot slots[LT_SLOTS];
_Atomic uint64_t lt_shadow_epoch_now;
_Atomic long lt_slots_live;

/* A child forked while a writer held a slot would wait for it forever:
 * such a slot loses its shadow instead (the conservative answer). */
static void fork_child(void)
{
    for (unsigned i = 0; i < LT_SLOTS; i++) {
        uint64_t q = atomic_load_explicit(&slots[i].seq, memory_order_relaxed);
        if (q & 1) {
            uintptr_t k = atomic_exchange_explicit(&slots[i].key, KEY_FREED, memory_order_relaxed);
            if (k != KEY_EMPTY && k != KEY_FREED)
                atomic_fetch_sub_explicit(&lt_slots_live, 1, memory_order_relaxed);
            atomic_store_explicit(&slots[i].seq, q + 1, memory_order_relaxed);
        }
    }
}

__attribute__((constructor)) static void register_fork(void) { pthread_atfork(NULL, NULL, fork_child); }

static unsigned home(uintptr_t key)
{
    return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 40) & (LT_SLOTS - 1);
}

static lt_slot *find(uintptr_t key)
{
    unsigned i = home(key);
    for (int p = 0; p < LT_SLOT_PROBE; p++, i = (i + 1) & (LT_SLOTS - 1)) {
        uintptr_t k = atomic_load_explicit(&slots[i].key, memory_order_acquire);
        if (k == key)
            return &slots[i];
        if (k == KEY_EMPTY)
            return NULL;
    }
    return NULL;
}

static lt_slot *claim(uintptr_t key)
{
    lt_slot *s = find(key); /* a stale shadow: its destroy was not seen */
    unsigned i = home(key);
    for (int p = 0; !s && p < LT_SLOT_PROBE; p++, i = (i + 1) & (LT_SLOTS - 1)) {
        uintptr_t k = atomic_load_explicit(&slots[i].key, memory_order_relaxed);
        while ((k == KEY_EMPTY || k == KEY_FREED) &&
               !atomic_compare_exchange_weak_explicit(&slots[i].key, &k, key, memory_order_acq_rel,
                                                      memory_order_relaxed))
            ;
        if (k == KEY_EMPTY || k == KEY_FREED) {
            s = &slots[i];
            atomic_fetch_add_explicit(&lt_slots_live, 1, memory_order_acq_rel);
        }
    }
    return s;
}

/* Writers take turns: the sequence number goes odd while one writes. */
static uint64_t write_begin(lt_slot *s)
{
    uint64_t q = atomic_load_explicit(&s->seq, memory_order_relaxed);
    for (;;) {
        if (!(q & 1) && atomic_compare_exchange_weak_explicit(&s->seq, &q, q + 1, memory_order_acquire,
                                                              memory_order_relaxed))
            return q + 1;
        if (q & 1)
            q = atomic_load_explicit(&s->seq, memory_order_relaxed);
    }
}

static void write_end(lt_slot *s, uint64_t q)
{
    atomic_store_explicit(&s->seq, q + 1, memory_order_release);
    atomic_fetch_add_explicit(&lt_shadow_epoch_now, 1, memory_order_release);
}

bool lt_slot_reset(int kind, const void *desc, lt_slot_fill fill, const void *arg)
{
    lt_slot *s = claim((uintptr_t)desc);
    if (!s)
        return false;
    uint64_t q = write_begin(s);
    if (atomic_load_explicit(&s->key, memory_order_relaxed) == (uintptr_t)desc) {
        s->kind = kind;
        lt_attrs_clear(&s->attrs);
        fill(&s->attrs, arg);
    }
    write_end(s, q);
    return true;
}

void lt_slot_set(const void *desc, int32_t id, const void *buf, size_t size)
{
    lt_slot *s = find((uintptr_t)desc);
    if (!s)
        return;
    uint64_t q = write_begin(s);
    if (atomic_load_explicit(&s->key, memory_order_relaxed) == (uintptr_t)desc)
        lt_attrs_set(&s->attrs, id, buf, size);
    write_end(s, q);
}

/* Every slot holding desc is freed: two threads that rebuilt one
 * descriptor's shadow at once may both have claimed one. */
void lt_slot_forget(const void *desc)
{
    lt_slot *s;
    while ((s = find((uintptr_t)desc))) {
        uint64_t q = write_begin(s);
        uintptr_t k = (uintptr_t)desc;
        /* The last of a probe run becomes empty again, so runs stay short.
         * A key claimed just past it meanwhile is then not found (no
         * shadow: the conservative answer), never a wrong one. */
        lt_slot *next = &slots[(unsigned)(s - slots + 1) & (LT_SLOTS - 1)];
        uintptr_t to = atomic_load_explicit(&next->key, memory_order_acquire) == KEY_EMPTY ? KEY_EMPTY : KEY_FREED;
        if (atomic_compare_exchange_strong_explicit(&s->key, &k, to, memory_order_acq_rel, memory_order_relaxed))
            atomic_fetch_sub_explicit(&lt_slots_live, 1, memory_order_acq_rel);
        write_end(s, q);
    }
}

bool lt_slot_exists(const void *desc) { return desc && find((uintptr_t)desc); }

/* The reader's copy races with a writer by design (the sequence number
 * tells it to retry): plain word loads, hidden from ThreadSanitizer. */
__attribute__((no_sanitize_thread)) static void copy_words(void *dst, const void *src, size_t bytes)
{
    uint32_t *d = dst;
    const volatile uint32_t *p = src;
    for (size_t i = 0; i < bytes / 4; i++)
        d[i] = p[i];
}

__attribute__((no_sanitize_thread)) static bool readable(const lt_slot *s, int kind, uintptr_t key)
{
    const volatile lt_slot *v = s;
    return v->kind == kind && !v->attrs.opaque && v->attrs.n <= LT_ATTR_MAX &&
           atomic_load_explicit(&s->key, memory_order_relaxed) == key;
}

__attribute__((no_sanitize_thread)) static uint32_t count(const lt_slot *s)
{
    return ((const volatile lt_slot *)s)->attrs.n;
}

static uint64_t read(int kind, const void *desc, lt_attrs *out)
{
    uintptr_t key = (uintptr_t)desc;
    lt_slot *s = desc ? find(key) : NULL;
    for (int tries = 0; s && tries < SEQ_LIMIT; tries++) {
        uint64_t q = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (q & 1)
            continue;
        bool ok = readable(s, kind, key);
        if (ok && out) {
            uint32_t n = count(s);
            n = n <= LT_ATTR_MAX ? n : LT_ATTR_MAX;
            copy_words(out, &s->attrs, offsetof(lt_attrs, a) + n * sizeof(lt_attr));
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->seq, memory_order_relaxed) != q)
            continue;
        if (ok && out && out->n > LT_ATTR_MAX)
            return 0;
        /* seq counts changes to this slot; its index makes it unique across slots */
        return ok ? (q + 2) << 10 | (uint64_t)(s - slots) : 0;
    }
    return 0;
}

uint64_t lt_slot_get(int kind, const void *desc, lt_attrs *out) { return read(kind, desc, out); }
uint64_t lt_slot_version(int kind, const void *desc) { return read(kind, desc, NULL); }
