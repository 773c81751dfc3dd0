/* cudaCreateChannelDesc: a host-side constructor, no device involved. */
#include "internal.h"

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){.x = x, .y = y, .z = z, .w = w, .f = f};
}
