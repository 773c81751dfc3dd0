/* From a matched rule and a launch's parameter bytes to a transpose record's
 * views. Row-major out[c*ld_out + r] = in[r*ld_in + c] is, column-major,
 * dst(r,c) = src(c,r) with dst rows x cols (ld_out) and src cols x rows (ld_in). */
#include <string.h>

#include "rules/rules_internal.h"

static size_t type_size(ftype t)
{
    return t == T_I32 || t == T_U32 ? 4 : 8;
}

static bool read_field(const field *f, void *const *params, const size_t *sizes, int nparams, int64_t *out)
{
    if (f->kind == F_LITERAL) {
        *out = f->lit;
        return true;
    }
    size_t need = (size_t)f->off + type_size(f->type);
    if (f->index >= nparams || !params[f->index])
        return false;
    if (sizes ? sizes[f->index] < need : f->has_off)
        return false; /* never read past a parameter we cannot size */
    const unsigned char *p = (const unsigned char *)params[f->index] + f->off;
    int32_t i32;
    uint32_t u32;
    switch (f->type) {
    case T_I32: memcpy(&i32, p, 4); *out = i32; break;
    case T_U32: memcpy(&u32, p, 4); *out = u32; break;
    default: memcpy(out, p, 8); break;
    }
    return true;
}

static const char *dtype_of(uint32_t elem)
{
    switch (elem) {
    case 1: return "8-bit";
    case 2: return "16-bit";
    case 4: return "32-bit";
    case 8: return "64-bit";
    case 16: return "128-bit";
    default: return "bytes";
    }
}

static bool bad(tf_reason *why, tf_reason r)
{
    *why = r;
    return false;
}

/* A batch stride as given, or dense (n x ld); false when that product
 * wraps, which would describe an empty footprint. */
static bool batch_stride(const tf_rule *r, int key, const int64_t *v, int64_t n, int64_t ld, int64_t *out)
{
    if (r->f[key].kind) {
        *out = v[key];
        return true;
    }
    return !__builtin_mul_overflow(n, ld, out);
}

bool tf_rule_describe(const tf_rule *r, const char *name, void *const *params, const size_t *sizes, int nparams,
                      tf_transpose_desc *d, tf_reason *why)
{
    int64_t v[K_N];
    for (int k = 0; k < K_N; k++) {
        if (r->f[k].kind == F_NONE)
            continue;
        if (!read_field(&r->f[k], params, sizes, nparams, &v[k]))
            return bad(why, TF_R_rule_field_outside);
    }
    int64_t rows = v[K_ROWS], cols = v[K_COLS];
    int64_t ld_in = r->f[K_LD_IN].kind ? v[K_LD_IN] : cols;
    int64_t ld_out = r->f[K_LD_OUT].kind ? v[K_LD_OUT] : rows;
    int64_t batch = r->f[K_BATCH].kind ? v[K_BATCH] : 1;
    int64_t s_in = 0, s_out = 0;
    if (rows < 0 || cols < 0 || ld_in < 0 || ld_out < 0 || batch < 1)
        return bad(why, TF_R_rule_negative_shape);
    if (!batch_stride(r, K_STRIDE_IN, v, rows, ld_in, &s_in) || !batch_stride(r, K_STRIDE_OUT, v, cols, ld_out, &s_out))
        return bad(why, TF_R_rule_shape_overflow);
    if (s_in < 0 || s_out < 0)
        return bad(why, TF_R_rule_negative_shape);
    if (ld_in < (cols ? cols : 1) || ld_out < (rows ? rows : 1))
        return bad(why, TF_R_rule_ld_small);
    if (!v[K_IN] || !v[K_OUT])
        return bad(why, TF_R_rule_null_operand);
    *d = (tf_transpose_desc){
        .producer = "kernel", .name = name, .dtype = dtype_of(r->elem),
        .src = {.addr = (uint64_t)v[K_IN], .elem = r->elem, .rows = cols, .cols = rows, .ld = ld_in,
                .batch = batch, .stride = s_in},
        .dst = {.addr = (uint64_t)v[K_OUT], .elem = r->elem, .rows = rows, .cols = cols, .ld = ld_out,
                .batch = batch, .stride = s_out},
        .alpha = {1.0, 0.0, true},
    };
    if (!tf_view_valid(&d->src) || !tf_view_valid(&d->dst))
        return bad(why, TF_R_rule_address_wrap);
    return true;
}
