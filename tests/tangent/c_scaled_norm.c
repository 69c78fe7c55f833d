// radtap: -head "norms(e)/(p)"
// sizes: n=4 p=8 e=1
// A hypot-style scaled norm that divides its by-value arguments in place (`x /= s; y /= s;`),
// as numerical libraries guard against overflow. In split mode (-nocheckpoint) `snorm_bwd`
// was given the caller's unscaled arguments and used them for the partials after the
// division (gradient off by the scale factor).
#include <math.h>

static double snorm(double x, double y)
{
    double s = fmax(fabs(x), fabs(y));
    if (s == 0.0)
        return 0.0;
    x /= s;
    y /= s;
    return s * sqrt(x * x + y * y);
}

void norms(int n, const double *p, double *e)
{
    int i;
    double acc = 0.0;
    for (i = 0; i < n; i++)
        acc += snorm(p[2 * i], p[2 * i + 1] + 0.5) * (1.0 + 0.1 * i);
    *e = acc;
}
