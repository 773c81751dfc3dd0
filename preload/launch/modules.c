/* Module identity: a hash of the image a module or library is loaded from,
 * so that a learned rule (module= guard) matches only the code it was
 * proven on, where generated kernels share generic names. Images are
 * sized by their format: PTX text, an ELF cubin, a fatbin (or the
 * runtime's wrapper around one); anything else has no identity (0). */
#include <string.h>

#include "tables/hooks.h"
#include "launch/names.h"
#include "core/state.h"

#define MAX_IMAGE (256u << 20)

static uint64_t read_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* Bytes of the image, 0 when its format is not known. */
static size_t image_size(const unsigned char *p)
{
    uint64_t n = 0;
    if (memcmp(p, "\x7f" "ELF", 4) == 0 && p[4] == 2) /* 64-bit ELF: section headers end it */
        n = read_le(p + 0x28, 8) + read_le(p + 0x3a, 2) * read_le(p + 0x3c, 2);
    else if (read_le(p, 4) == 0xBA55ED50u) /* fatbin: header size + payload */
        n = read_le(p + 6, 2) + read_le(p + 8, 8);
    else if (p[0] == '/' || p[0] == '.' || p[0] == '\n' || p[0] == '\t' || p[0] == ' ')
        n = strnlen((const char *)p, MAX_IMAGE); /* PTX */
    return n <= MAX_IMAGE ? (size_t)n : 0;
}

static uint64_t identity(const void *image)
{
    const unsigned char *p = image;
    if (p && read_le(p, 4) == 0x466243b1u) /* the runtime's fatbin wrapper */
        memcpy(&p, (const unsigned char *)image + 8, sizeof p);
    size_t n = p ? image_size(p) : 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return n ? h | 1 : 0; /* never 0 for a known image */
}

/* Only rules (their module= guards) and learning read an identity:
 * otherwise the images PyTorch loads at import (hundreds of MB) are not
 * hashed, most of what transfold cost a PyTorch process at startup. */
static bool identity_wanted(void)
{
    return pl_layer_on() && (pl_env_now.rules || pl_env_now.learn);
}

#define NOTE(out, image, call)                                 \
    ({                                                         \
        CUresult r_ = TF_PASS(call);                           \
        if (r_ == CUDA_SUCCESS && (out) && identity_wanted())  \
            pl_module_set(*(out), identity(image));            \
        r_;                                                    \
    })

CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    TF_REAL_OR(cuModuleLoadData, TF_MISSING_CUDA);
    return NOTE(m, image, real(m, image));
}

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v)
{
    TF_REAL_OR(cuModuleLoadDataEx, TF_MISSING_CUDA);
    return NOTE(m, image, real(m, image, n, o, v));
}

CUresult cuModuleLoadFatBinary(CUmodule *m, const void *fatbin)
{
    TF_REAL_OR(cuModuleLoadFatBinary, TF_MISSING_CUDA);
    return NOTE(m, fatbin, real(m, fatbin));
}

CUresult cuLibraryLoadData(CUlibrary *l, const void *code, CUjit_option *jo, void **jv, unsigned int nj,
                           CUlibraryOption *lo, void **lv, unsigned int nl)
{
    TF_REAL_OR(cuLibraryLoadData, TF_MISSING_CUDA);
    return NOTE(l, code, real(l, code, jo, jv, nj, lo, lv, nl));
}
