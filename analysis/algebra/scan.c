/* Pointer-sized values in a launch's parameter bytes. Every scan of them
 * (the args policy's effects, verify mode's replay into scratch) walks
 * them the same way: at every byte offset, since a packed struct parameter
 * may hold a pointer anywhere. */
#include <string.h>

#include "engine.h"

bool tf_scan_words(const void *bytes, size_t len, tf_word_fn fn, void *ctx)
{
    const unsigned char *b = bytes;
    for (size_t off = 0; b && off + sizeof(uint64_t) <= len; off++) {
        uint64_t v;
        memcpy(&v, b + off, sizeof v);
        if (fn(v, off, ctx))
            return true;
    }
    return false;
}
