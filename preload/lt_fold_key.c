/* Building fold signatures. Pointer attributes enter by alignment only:
 * programs (PyTorch's addmm) set a new bias or aux pointer on every call,
 * and the heuristic only looks at how they are aligned. */
#include <string.h>

#include "lt_fold_key.h"

uint32_t lt_align(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (!a)
        return 256;
    a &= -a;
    return a > 256 ? 256 : (uint32_t)a;
}

const void *lt_fold_ptr(const lt_matmul_call *c, const lt_fold *f, int i)
{
    return i < 2 && f->folded[i] ? f->ptr[i] : c->ptr[i];
}

static bool pointer_attr(int32_t id)
{
    switch (id) {
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER:
    case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_C_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_D_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_AMAX_D_POINTER:
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER:
    case CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER:
        return true;
    default:
        return false;
    }
}

static unsigned char *put_attrs(unsigned char *at, const lt_attrs *a, bool desc)
{
    size_t n = a->n * sizeof a->a[0];
    memcpy(at, a->a, n);
    for (uint32_t i = 0; desc && i < a->n; i++) {
        lt_attr *x = (lt_attr *)(void *)(at + i * sizeof a->a[0]);
        if (!pointer_attr(x->id) || x->size != sizeof(uint64_t))
            continue;
        uint64_t p, cls;
        memcpy(&p, x->v, sizeof p);
        cls = p ? lt_align((const void *)(uintptr_t)p) : 0;
        memcpy(x->v, &cls, sizeof cls);
    }
    return at + n;
}

void lt_fold_key_make(lt_fold_key *k, const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f)
{
    lt_fold_key_head h;
    memset(&h, 0, sizeof h);
    h.handle = TF_ADDR(c->handle);
    h.workspace = c->workspace_size;
    for (int i = 0; i < 4; i++)
        h.align[i] = lt_align(lt_fold_ptr(c, f, i));
    h.nattrs[0] = s->desc.n;
    for (int i = 0; i < 4; i++)
        h.nattrs[1 + i] = s->lay[i].n;
    for (int i = 0; i < 2; i++) {
        h.folded[i] = f->folded[i];
        h.op[i] = f->folded[i] ? (int32_t)f->op[i] : 0;
        h.ld[i] = f->folded[i] ? f->ld[i] : 0;
        h.stride[i] = f->folded[i] ? f->stride[i] : 0;
    }
    memcpy(k->bytes, &h, sizeof h);
    unsigned char *at = put_attrs(k->bytes + sizeof h, &s->desc, true);
    for (int i = 0; i < 4; i++)
        at = put_attrs(at, &s->lay[i], false);
    k->len = (size_t)(at - k->bytes);
}

uint32_t lt_fold_key_hash(const void *key, size_t len)
{
    uint64_t h = 1469598103934665603ull, w;
    for (size_t i = 0; i + sizeof w <= len; i += sizeof w) {
        memcpy(&w, (const unsigned char *)key + i, sizeof w);
        h = (h ^ w) * 1099511628211ull;
    }
    return (uint32_t)(h ^ (h >> 32));
}
