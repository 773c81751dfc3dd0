/* Every hook table, for X-macro expansion: define HOOK and USE, include this
 * file, undefine them. No include guard on purpose. */
#include "hooks_cublas.def"
#include "hooks_cudart.def"
#include "hooks_cuda.def"
#include "hooks_cublas_gen.def" /* generated: build/preload/gen */
#include "hooks_lt.def"
