/* Every hook table, for X-macro expansion: define HOOK and USE, include this
 * file, undefine them. No include guard on purpose. */
#include "tables/hooks_cublas.def"
#include "tables/hooks_cudart.def"
#include "tables/hooks_cuda.def"
#include "hooks_cublas_gen.def" /* generated: build/preload/gen */
#include "tables/hooks_lt.def"
#include "tables/hooks_c10.def"
