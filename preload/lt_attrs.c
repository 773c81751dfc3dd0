/* Attribute sets: a sorted array small enough to scan. */
#include <string.h>

#include "lt_attrs.h"

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

void lt_attrs_set(lt_attrs *s, int32_t id, const void *buf, size_t size)
{
    uint32_t i = lower_bound(s, id);
    bool present = i < s->n && s->a[i].id == id;
    if (size > LT_ATTR_BYTES || !buf || (!present && s->n == LT_ATTR_MAX)) {
        s->opaque = true;
        return;
    }
    if (!present) {
        memmove(&s->a[i + 1], &s->a[i], (s->n - i) * sizeof s->a[0]);
        s->n++;
    }
    lt_attr *a = &s->a[i];
    memset(a, 0, sizeof *a);
    a->id = id;
    a->size = (uint32_t)size;
    memcpy(a->v, buf, size);
}

/* The stored attribute, or NULL when the program never set it. */
static const lt_attr *lt_attrs_find(const lt_attrs *s, int32_t id)
{
    uint32_t i = lower_bound(s, id);
    return i < s->n && s->a[i].id == id ? &s->a[i] : NULL;
}

/* Signed widening keeps -1 defaults (bias and aux types) intact. */
int64_t lt_attrs_int(const lt_attrs *s, int32_t id, int64_t dflt)
{
    const lt_attr *a = lt_attrs_find(s, id);
    if (!a)
        return dflt;
    switch (a->size) {
    case 1: { int8_t v; memcpy(&v, a->v, 1); return v; }
    case 2: { int16_t v; memcpy(&v, a->v, 2); return v; }
    case 4: { int32_t v; memcpy(&v, a->v, 4); return v; }
    case 8: { int64_t v; memcpy(&v, a->v, 8); return v; }
    default: return dflt;
    }
}

uint64_t lt_attrs_u64(const lt_attrs *s, int32_t id, uint64_t dflt)
{
    const lt_attr *a = lt_attrs_find(s, id);
    uint64_t v = 0;
    if (!a || a->size != sizeof v)
        return dflt;
    memcpy(&v, a->v, sizeof v);
    return v;
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
