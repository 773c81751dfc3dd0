/* Attribute sets (attrs.h): a sorted array small enough to scan. */
#include "lt/attrs.h"
#include <string.h>

void lt_attrs_clear(lt_attrs *s)
{
    s->n = 0;
    s->opaque = false;
}

static uint32_t lower_bound(const lt_attrs *s, int32_t id)
{
    uint32_t i = 0;
    while (i < s->n && s->a[i].id < id)
        i++;
    return i;
}

/* Fixed-size copies for the common widths: a call to memcpy costs more
 * than the attribute (every shadowed SetAttribute comes here). */
static void store(lt_attr *a, int32_t id, const void *buf, size_t size)
{
    uint64_t w[2] = { 0, 0 };
    switch (size) {
    case 4: memcpy(w, buf, 4); break;
    case 8: memcpy(w, buf, 8); break;
    default: memcpy(w, buf, size); break;
    }
    a->id = id;
    a->size = (uint32_t)size;
    memcpy(a->v, w, sizeof w);
}

void lt_attrs_set(lt_attrs *s, int32_t id, const void *buf, size_t size)
{
    if (size > LT_ATTR_BYTES || !buf) {
        s->opaque = true;
        return;
    }
    /* Programs set attributes in ascending order more often than not, and
     * creation arguments are recorded in id order: append without a scan. */
    uint32_t i = s->n && s->a[s->n - 1].id >= id ? lower_bound(s, id) : s->n;
    bool present = i < s->n && s->a[i].id == id;
    if (!present && s->n == LT_ATTR_MAX) {
        s->opaque = true;
        return;
    }
    if (!present) {
        if (i < s->n)
            memmove(&s->a[i + 1], &s->a[i], (s->n - i) * sizeof s->a[0]);
        s->n++;
    }
    store(&s->a[i], id, buf, size);
}

/* The stored attribute, or NULL when the program never set it. */
static const lt_attr *lt_attrs_find(const lt_attrs *s, int32_t id)
{
    uint32_t i = lower_bound(s, id);
    return i < s->n && s->a[i].id == id ? &s->a[i] : NULL;
}

/* Signed widening keeps -1 defaults (bias and aux types) intact. */
int64_t lt_attr_int(const lt_attr *a, int64_t dflt)
{
    switch (a->size) {
    case 1: { int8_t v; memcpy(&v, a->v, 1); return v; }
    case 2: { int16_t v; memcpy(&v, a->v, 2); return v; }
    case 4: { int32_t v; memcpy(&v, a->v, 4); return v; }
    case 8: { int64_t v; memcpy(&v, a->v, 8); return v; }
    default: return dflt;
    }
}

uint64_t lt_attr_u64(const lt_attr *a, uint64_t dflt)
{
    uint64_t v = 0;
    if (a->size != sizeof v)
        return dflt;
    memcpy(&v, a->v, sizeof v);
    return v;
}

int64_t lt_attrs_int(const lt_attrs *s, int32_t id, int64_t dflt)
{
    const lt_attr *a = lt_attrs_find(s, id);
    return a ? lt_attr_int(a, dflt) : dflt;
}

uint64_t lt_attrs_u64(const lt_attrs *s, int32_t id, uint64_t dflt)
{
    const lt_attr *a = lt_attrs_find(s, id);
    return a ? lt_attr_u64(a, dflt) : dflt;
}

void lt_attrs_set_i32(lt_attrs *s, int32_t id, int32_t v) { lt_attrs_set(s, id, &v, sizeof v); }
void lt_attrs_set_u64(lt_attrs *s, int32_t id, uint64_t v) { lt_attrs_set(s, id, &v, sizeof v); }
void lt_attrs_set_i64(lt_attrs *s, int32_t id, int64_t v) { lt_attrs_set(s, id, &v, sizeof v); }

size_t lt_attrs_used(const lt_attrs *s)
{
    return offsetof(lt_attrs, a) + s->n * sizeof s->a[0];
}

void lt_attrs_copy(lt_attrs *dst, const lt_attrs *src)
{
    memcpy(dst, src, lt_attrs_used(src));
}

bool lt_attrs_equal(const lt_attrs *x, const lt_attrs *y)
{
    return x->n == y->n && x->opaque == y->opaque && memcmp(x->a, y->a, x->n * sizeof x->a[0]) == 0;
}

