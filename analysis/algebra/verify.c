/* Output comparison for verify mode. */
#include <math.h>
#include <string.h>

#include "algebra/verify.h"

typedef struct dtype_info { const char *name; uint32_t size; int parts; double eps; } dtype_info;

static const dtype_info dtypes[] = {
    {"f32", 4, 1, 0x1p-23}, {"f64", 8, 1, 0x1p-52}, {"c64", 8, 2, 0x1p-23}, {"c128", 16, 2, 0x1p-52},
    {"f16", 2, 1, 0x1p-10}, {"bf16", 2, 1, 0x1p-7},
};

static const dtype_info *find(const char *name)
{
    for (size_t i = 0; name && i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(dtypes[i].name, name) == 0)
            return &dtypes[i];
    return NULL;
}

double tf_dtype_eps(const char *dtype)
{
    const dtype_info *d = find(dtype);
    return d ? d->eps : 0;
}

uint32_t tf_dtype_size(const char *dtype)
{
    const dtype_info *d = find(dtype);
    return d ? d->size : 0;
}

static double half_to_double(uint16_t h, bool bf16)
{
    if (bf16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Part p (0 real, 1 imaginary) of element i. */
static double load(const dtype_info *d, const unsigned char *base, int64_t i, int p)
{
    const unsigned char *at = base + (size_t)i * d->size + (size_t)p * (d->size / (unsigned)d->parts);
    if (d->size / (unsigned)d->parts == 2) {
        uint16_t h;
        memcpy(&h, at, 2);
        return half_to_double(h, strcmp(d->name, "bf16") == 0);
    }
    if (d->size / (unsigned)d->parts == 4) {
        float f;
        memcpy(&f, at, 4);
        return f;
    }
    double v;
    memcpy(&v, at, 8);
    return v;
}

static double max_abs(const dtype_info *d, const void *m, int64_t rows, int64_t cols, int64_t ld)
{
    double s = 0;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            for (int p = 0; p < d->parts; p++)
                s = fmax(s, fabs(load(d, m, j * ld + i, p)));
    return s;
}

static void note(tf_verify_result *r, int64_t i, int64_t j, double a, double b, double tol)
{
    double err = fabs(a - b);
    bool bad = !(err <= tol) && !(isnan(a) && isnan(b));
    if (!bad)
        return;
    r->equal = false;
    if (r->mismatches++ == 0 || err > r->max_err || isnan(err)) {
        r->worst_i = i;
        r->worst_j = j;
        r->folded = a;
        r->unfolded = b;
        r->max_err = err;
        r->tol = tol;
    }
}

static void compare_bytes(uint32_t size, const unsigned char *a, const unsigned char *b, int64_t rows, int64_t cols,
                          int64_t ld, tf_verify_result *r)
{
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) {
            size_t off = (size_t)(j * ld + i) * size;
            if (memcmp(a + off, b + off, size)) {
                r->equal = false;
                if (r->mismatches++ == 0) {
                    r->worst_i = i;
                    r->worst_j = j;
                }
            }
        }
}

/* Tolerance: a k-term sum in another order may differ by about k*eps times
 * the magnitudes involved; the output's largest magnitude stands in for
 * them so that cancellation to near zero is not flagged. */
void tf_verify_compare(const char *dtype, const void *folded, const void *unfolded, int64_t rows, int64_t cols,
                       int64_t ld, int64_t k, bool exact, tf_verify_result *r)
{
    memset(r, 0, sizeof *r);
    r->equal = true;
    const dtype_info *d = find(dtype);
    if (exact || !d) {
        compare_bytes(d ? d->size : 1, folded, unfolded, rows, cols, ld, r);
        if (d && !r->equal) {
            r->folded = load(d, folded, r->worst_j * ld + r->worst_i, 0);
            r->unfolded = load(d, unfolded, r->worst_j * ld + r->worst_i, 0);
            r->max_err = fabs(r->folded - r->unfolded);
        }
        return;
    }
    double scale = max_abs(d, unfolded, rows, cols, ld);
    double kk = k > 0 ? (double)k : 1;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            for (int p = 0; p < d->parts; p++) {
                double a = load(d, folded, j * ld + i, p), b = load(d, unfolded, j * ld + i, p);
                note(r, i, j, a, b, 2 * kk * d->eps * (fmax(fabs(a), fabs(b)) + scale));
            }
}
