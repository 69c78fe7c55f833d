// radtap: -head "series_e(res)/(x)" -size res=1
// sizes: res=1
/* A function returning an integer status straight from a call that writes its real result
   through a pointer, in the shape of GSL's special functions (`int gsl_sf_expint_E1_e(x,
   result) { return expint_E1_impl(x, result, 0); }`, hunt 15): the adjoint left the call out
   (`return` of a value with no adjoint was taken as having nothing to reverse), so `x`'s
   adjoint stayed zero. `return e` with a call of the program in `e`, in a function whose
   result is not real, is now `r = e; return r;`. (A call nested in a call there, `return
   g(f(x, res))`, is refused in adjoint mode; a return before the end was already an
   assignment.) */
#include <math.h>

typedef struct {
    double val;
    double err;
} series_result;

static int series_impl(const double x, series_result *r, const int scaled)
{
    double t = x * x;
    double s = 1.0 + t / 6.0 + t * t / 120.0;
    r->val = x * s;
    if (scaled) {
        r->val *= exp(-x);
    }
    r->err = 1e-16 * fabs(r->val);
    r->err += 2.0 * 1e-16 * fabs(r->val);
    return 0;
}

int series_e(const double x, series_result *res)
{
    const int scaled = x > 10.0;
    const double y = scaled ? x - 10.0 : x;
    return series_impl(y, res, scaled);
}
