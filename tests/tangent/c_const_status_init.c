// radtap: -head "dilog_like(res)/(x)" -size res=1
// sizes: res=1
/* A `const int` status initialised by a call that writes the real result through a pointer,
   then read and rescaled, in the shape of GSL's `dilog_series_2` (`const int stat_s3 =
   series_2(x, result); ... result->val += ...`): the split of such a declaration into a
   declaration and an assignment skipped `const` ones, and the adjoint refused the call ("a
   reference to the function `series_2` … inside an expression"). The split drops `const`. */
#include <math.h>

typedef struct {
    double val;
    double err;
} dl_result;

static int series_2(const double x, dl_result *r)
{
    double sum = 0.5 * x;
    double term = x;
    int k;
    for (k = 2; k < 12; k++) {
        term *= x;
        sum += term / (k * (k + 1.0));
    }
    r->val = sum;
    r->err = 2.0e-16 * fabs(sum);
    return 0;
}

int dilog_like(const double x, dl_result *res)
{
    const int stat = series_2(x, res);
    double t = log(1.0 + x * x);
    res->val = 1.0 + res->val + (1.0 - x) / (1.0 + x) * t;
    res->err += 1.0e-16 * fabs(t);
    return stat;
}
