/* Every cuBLAS (v2 and cublasXt) function of the public headers that the
 * stand-in does not implement exists and answers
 * CUBLAS_STATUS_NOT_SUPPORTED, never a wrong value: the generated
 * cublas_unsupported.h lists them (gen-unsupported.py), each is a weak alias
 * here, and the stand-in's own definitions override them at link time. One
 * function serves every signature: each returns cublasStatus_t, and
 * arguments are the caller's to clean up. Functions declared for C++ only
 * (__half arguments) get a C prototype of their own. */
#include "handle.h"

#include <cublasXt.h>

static cublasStatus_t not_supported(void) { return CUBLAS_STATUS_NOT_SUPPORTED; }

/* The aliases take each declaration's type (deprecated ones included);
 * the target's differs on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wattribute-alias"
#define SIM_UNSUPPORTED(name, base) __typeof__(base) name __attribute__((weak, alias("not_supported")));
#define SIM_UNSUPPORTED_UNTYPED(name) cublasStatus_t name(void) __attribute__((weak, alias("not_supported")));
#include "cublas_unsupported.h"
