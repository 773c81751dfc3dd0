/* TensorIterator's elementwise kernels: what one instantiation does.
 *
 * A kernel is a launch shape (elementwise.c: how elements and data are
 * laid out in the parameters) around a functor (ew_functors.c: what each
 * element computes, from the demangled name). Elements are computed the
 * way ATen does: arguments converted to the functor's argument types, the
 * arithmetic in the op's compute class (float for half, bfloat16 and
 * float, double for double, int64 for integers: ATen's opmath), the result
 * rounded to the functor's result type, then to the output's dtype. */
#ifndef ATEN_EW_H
#define ATEN_EW_H

#include "aten.h"
#include "dtype.h"
#include "names.h"

typedef enum ew_class { EW_F, EW_D, EW_I } ew_class;
typedef union ew_num { float f; double d; int64_t i; } ew_num;

#define EW_MAX_IN 3
#define EW_MAX_CAPS 4

/* What an op's body may need beyond its arguments. */
typedef struct ew_env {
    aten_dtype scalar; /* scalar_t: arithmetic "in scalar_t" rounds to it */
    int64_t mode;      /* an enum captured (comparison op, clamp limits) */
} ew_env;

typedef float (*ew_fn_f)(const ew_env *e, const float *x, const float *c);
typedef double (*ew_fn_d)(const ew_env *e, const double *x, const double *c);
typedef int64_t (*ew_fn_i)(const ew_env *e, const int64_t *x, const int64_t *c);
/* Ops that move bytes (copies, fills, where): out has the result type,
 * x[k] the argument types, c the functor's bytes. */
typedef struct ew_inst ew_inst;
typedef void (*ew_fn_raw)(const ew_inst *in, const unsigned char *functor, void *out, const void *const *x);

/* A capture's type, relative to the op's scalar type. */
typedef enum ew_cap {
    CAP_SCALAR, /* scalar_t */
    CAP_OPMATH, /* at::opmath_type<scalar_t>: float for half/bfloat16 */
    CAP_ACC,    /* at::acc_type<scalar_t, true>: also int64 for integers */
    CAP_MODE,   /* a 4-byte enum, given to the op as env.mode */
    CAP_EMPTY,  /* an empty member (1 byte): a stateless inner functor */
} ew_cap;

typedef struct ew_def {
    const char *name; /* for messages */
    int arity;        /* inputs */
    ew_cap caps[EW_MAX_CAPS];
    int ncaps;
    ew_fn_f f;
    ew_fn_d d;
    ew_fn_i i;
    ew_fn_raw raw;
} ew_def;

/* How the functor wraps the op (BinaryOpsKernel's scalar wrappers). */
typedef enum ew_wrap { WRAP_NONE, WRAP_AUNARY, WRAP_BUNARY, WRAP_BINARY } ew_wrap;

struct ew_inst {
    const ew_def *def;
    ew_wrap wrap;
    int arity;                 /* the functor's inputs */
    aten_dtype arg[EW_MAX_IN]; /* the functor's argument types */
    aten_dtype res;            /* its result type */
    aten_dtype scalar;         /* the op's scalar_t */
    ew_class cls;
    /* The functor's bytes: size, alignment, where each capture is. */
    size_t fsize, falign;
    size_t cap_off[EW_MAX_CAPS + 1];
    aten_dtype cap_type[EW_MAX_CAPS + 1];
    int ncaps;      /* with the wrapper's scalar last */
    int mode_cap;   /* index of the CAP_MODE capture, or -1 */
};

/* Works out the functor named by f (op, types, capture layout); false
 * when it is not one the twins know. */
bool ew_functor(aten_span f, ew_inst *in);

/* A launch's captures, read once from the functor's bytes. */
typedef struct ew_prep {
    const unsigned char *functor;
    ew_env env;
    float cf[EW_MAX_CAPS + 1];
    double cd[EW_MAX_CAPS + 1];
    int64_t ci[EW_MAX_CAPS + 1];
} ew_prep;
void ew_prepare(const ew_inst *in, const unsigned char *functor, ew_prep *p);

/* One element: x[k] points at input k, stored as in_types[k] (the
 * argument types unless a casting kernel); out as out_type. */
void ew_element(const ew_inst *in, const ew_prep *p, void *out, aten_dtype out_type, const void *const *x,
                const aten_dtype *in_types);

/* elementwise_kernel_with_index (arange), ew_index.c. */
bool ew_with_index_resolve(const char *demangled, simcuda_twin *out);

/* The op definitions (ew_ops.c), looked up by ew_functors.c. */
extern const ew_def ew_copy, ew_convert, ew_fill, ew_where, ew_add_alpha, ew_add_self, ew_add_other, ew_mul, ew_div,
    ew_compare, ew_compare_eq, ew_compare_scalar, ew_threshold, ew_maximum, ew_minimum, ew_gelu, ew_gelu_tanh,
    ew_gelu_bw, ew_gelu_tanh_bw, ew_mse, ew_mse_bw, ew_exp, ew_log, ew_tanh, ew_sigmoid, ew_sqrt, ew_rsqrt,
    ew_reciprocal, ew_neg, ew_sign, ew_abs, ew_silu, ew_square, ew_cube, ew_inv_square, ew_pow_scalar,
    ew_addcmul, ew_addcdiv, ew_masked_scale, ew_lerp_scalar, ew_lerp_tensor, ew_clamp, ew_clamp_scalar, ew_sub, ew_erf, ew_cos,
    ew_sin, ew_floor, ew_round_op, ew_log1p, ew_expm1, ew_exp2, ew_log2, ew_pow_tensor, ew_tanh_bw, ew_sigmoid_bw,
    ew_silu_bw, ew_leaky_relu, ew_softplus, ew_remainder, ew_nan_to_num, ew_bitwise_not, ew_bitwise_and,
    ew_bitwise_or, ew_bitwise_xor, ew_masked_fill, ew_elu, ew_hardswish, ew_hardsigmoid, ew_mish, ew_signbit,
    ew_logical_not;

#endif
