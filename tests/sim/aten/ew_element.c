/* One element, as ATen's loops do it: inputs converted to the functor's
 * argument types (casting kernels), the op in its compute class, the
 * result rounded to the functor's result type, then to the output's. */
#include "ew.h"

void ew_prepare(const ew_inst *in, const unsigned char *functor, ew_prep *p)
{
    memset(p, 0, sizeof *p);
    p->functor = functor;
    p->env.scalar = in->scalar;
    for (int k = 0; k < in->ncaps; k++) {
        if (in->cap_type[k] == ATEN_NONE)
            continue;
        aten_value v = aten_load(in->cap_type[k], functor + in->cap_off[k]);
        p->cf[k] = aten_value_float(v);
        p->cd[k] = aten_value_double(v);
        p->ci[k] = aten_value_int(v);
        if (k == in->mode_cap)
            p->env.mode = v.i;
    }
}

static void compute(const ew_inst *in, const ew_prep *p, void *out, const void *const *args)
{
    float xf[EW_MAX_IN + 1];
    double xd[EW_MAX_IN + 1];
    int64_t xi[EW_MAX_IN + 1];
    int n = 0, wrap_cap = in->ncaps - 1;
    if (in->wrap == WRAP_AUNARY) {
        xf[n] = p->cf[wrap_cap], xd[n] = p->cd[wrap_cap], xi[n] = p->ci[wrap_cap];
        n++;
    }
    for (int k = 0; k < in->arity; k++, n++) {
        aten_value v = aten_load(in->arg[k], args[k]);
        xf[n] = aten_value_float(v), xd[n] = aten_value_double(v), xi[n] = aten_value_int(v);
    }
    if (in->wrap == WRAP_BUNARY)
        xf[n] = p->cf[wrap_cap], xd[n] = p->cd[wrap_cap], xi[n] = p->ci[wrap_cap];
    aten_value y = {0};
    switch (in->cls) {
    case EW_F: y.d = in->def->f(&p->env, xf, p->cf); break;
    case EW_D: y.d = in->def->d(&p->env, xd, p->cd), y.is_double = true; break;
    case EW_I: y.i = in->def->i(&p->env, xi, p->ci), y.is_int = true; break;
    }
    aten_store(in->res, out, y);
}

void ew_element(const ew_inst *in, const ew_prep *p, void *out, aten_dtype out_type, const void *const *x,
                const aten_dtype *in_types)
{
    unsigned char conv[EW_MAX_IN][16], res[16];
    const void *args[EW_MAX_IN];
    for (int k = 0; k < in->arity; k++) {
        args[k] = x[k];
        if (in_types[k] != in->arg[k]) {
            aten_convert(in->arg[k], conv[k], in_types[k], x[k]);
            args[k] = conv[k];
        }
    }
    void *dst = out_type == in->res ? out : res;
    if (in->def->raw)
        in->def->raw(in, p->functor, dst, args);
    else
        compute(in, p, dst, args);
    if (dst != out)
        aten_convert(out_type, out, in->res, res);
}
