/* The attributes a program set on one cuBLASLt descriptor, as raw bytes.
 *
 * Kept sorted by id with unused bytes zeroed, so two sets compare (and
 * hash) as plain memory: the heuristic cache keys on them. Attributes are
 * scalars or pointers; one larger than LT_ATTR_BYTES marks the set opaque
 * (it cannot be replayed onto a new descriptor). At most LT_ATTR_MAX: a
 * lookup scans a bounded array, and only when a snapshot is decoded.
 * Plain C with no CUDA header, so the shadow slots' unit test builds it. */
#ifndef PL_LT_ATTRS_H
#define PL_LT_ATTRS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_ATTR_MAX 48
#define LT_ATTR_BYTES 16

typedef struct lt_attr {
    int32_t id;
    uint32_t size;
    unsigned char v[LT_ATTR_BYTES];
} lt_attr;

typedef struct lt_attrs {
    uint32_t n;
    bool opaque;
    lt_attr a[LT_ATTR_MAX];
} lt_attrs;

void lt_attrs_clear(lt_attrs *s);
/* Records (or replaces) one attribute; marks the set opaque when it does
 * not fit. */
void lt_attrs_set(lt_attrs *s, int32_t id, const void *buf, size_t size);
/* Typed reads of one attribute; `dflt` when stored with another size. */
int64_t lt_attr_int(const lt_attr *a, int64_t dflt);
uint64_t lt_attr_u64(const lt_attr *a, uint64_t dflt);
/* Typed reads; `dflt` when unset or stored with another size. */
int64_t lt_attrs_int(const lt_attrs *s, int32_t id, int64_t dflt);
uint64_t lt_attrs_u64(const lt_attrs *s, int32_t id, uint64_t dflt);
/* Typed writes of the attribute's documented width. */
void lt_attrs_set_i32(lt_attrs *s, int32_t id, int32_t v);
void lt_attrs_set_u64(lt_attrs *s, int32_t id, uint64_t v);
void lt_attrs_set_i64(lt_attrs *s, int32_t id, int64_t v);

/* Bytes of the used part: copies and comparisons stop there. */
size_t lt_attrs_used(const lt_attrs *s);
void lt_attrs_copy(lt_attrs *dst, const lt_attrs *src);
bool lt_attrs_equal(const lt_attrs *x, const lt_attrs *y);

#endif
