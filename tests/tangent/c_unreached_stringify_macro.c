// radtap: -head "bump_e(res)/(x)"
// sizes: res=1
/* A function the head never calls uses a macro that stringifies its argument, in the shape
   of GSL's `double gsl_sf_erf(double x) { EVAL_RESULT(gsl_sf_erf_e(x, &result)); }` beside
   `gsl_sf_erf_e`: radtap cannot expand it (`#`), and the refusal stopped every head of the
   file. It is reported only when a head reaches the function. */
#include <math.h>
#include <stdio.h>

typedef struct {
    double val;
    double err;
} bump_result;

#define EVAL_RESULT(fn)                                 \
    bump_result result;                                 \
    int status = fn;                                    \
    if (status != 0) {                                  \
        fprintf(stderr, "%s failed\n", #fn);            \
    }                                                   \
    return result.val;

int bump_e(const double x, bump_result *res)
{
    res->val = exp(-x * x) * (1.0 + x);
    res->err = 1e-16 * fabs(res->val);
    return 0;
}

double bump(const double x)
{
    EVAL_RESULT(bump_e(x, &result));
}
