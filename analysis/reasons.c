/* The reason table (reasons.h) and the one formatter of its texts. */
#include <stdio.h>
#include <string.h>

#include "reasons.h"

typedef struct reason_row { const char *key, *class, *text; } reason_row;

static const reason_row rows[TF_R_COUNT] = {
    [TF_R_NONE] = { NULL, NULL, NULL },
#define TF_R_ROW(key, class, text) [TF_R_##key] = { #key, class, text },
    TF_REASON_LIST(TF_R_ROW)
#undef TF_R_ROW
};

static const reason_row *row(tf_reason r)
{
    return r > TF_R_NONE && r < TF_R_COUNT ? &rows[r] : &rows[TF_R_NONE];
}

const char *tf_reason_key(tf_reason r) { return row(r)->key; }
const char *tf_reason_class(tf_reason r) { return row(r)->class; }
const char *tf_reason_text(tf_reason r) { return row(r)->text; }

typedef struct out { char *buf; size_t len, at; } out;

static void put(out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n && o->at + 1 < o->len; i++)
        o->buf[o->at++] = s[i];
}

/* Values are taken in order per kind; the formats are literals here, so
 * the compiler checks each against its value. */
static const char *conversion(const tf_why *w, const char *f, int used[3], out *o)
{
    char tmp[64];
    int n = -1;
    if (strncmp(f, "%s", 2) == 0) {
        const char *s = used[0] < 3 ? w->str[used[0]++] : NULL;
        put(o, s ? s : "?", strlen(s ? s : "?"));
        return f + 2;
    }
    if (strncmp(f, "%lld", 4) == 0) {
        n = used[1] < 2 ? snprintf(tmp, sizeof tmp, "%lld", w->num[used[1]++]) : snprintf(tmp, sizeof tmp, "?");
        f += 4;
    } else if (strncmp(f, "%+g", 3) == 0) {
        n = used[2] < 2 ? snprintf(tmp, sizeof tmp, "%+g", w->real[used[2]++]) : snprintf(tmp, sizeof tmp, "?");
        f += 3;
    } else if (strncmp(f, "%g", 2) == 0) {
        n = used[2] < 2 ? snprintf(tmp, sizeof tmp, "%g", w->real[used[2]++]) : snprintf(tmp, sizeof tmp, "?");
        f += 2;
    } else { /* "%%" or a conversion the table must not use: printed as is */
        put(o, f, 1);
        return f[1] == '%' ? f + 2 : f + 1;
    }
    put(o, tmp, n > 0 ? (size_t)n : 0);
    return f;
}

const char *tf_why_text(const tf_why *w, char *buf, size_t len)
{
    if (!len)
        return buf;
    out o = { buf, len, 0 };
    int used[3] = { 0, 0, 0 }; /* str, num, real values taken so far */
    const char *f = tf_reason_text(w->key);
    while (f && *f) {
        const char *pct = strchr(f, '%');
        size_t plain = pct ? (size_t)(pct - f) : strlen(f);
        put(&o, f, plain);
        f = pct ? conversion(w, pct, used, &o) : f + plain;
    }
    buf[o.at] = '\0';
    return buf;
}
