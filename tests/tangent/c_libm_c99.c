// radtap: -head libm_c99 -vars "x" -outvars "r"
// sizes:
// C99 math.h functions with rules from their vocabulary records (fdim, fma, remainder,
// ldexp, scalbn, scalbln were refused as having no rule): double, float-free.
#include <math.h>

void libm_c99(const double x[4], double r[3])
{
    double t = fdim(x[0], 0.2) * x[1] + fdim(0.1, x[2]);
    r[0] = fma(x[0], x[1], t) + fma(t, 2.0, x[3]);
    r[1] = remainder(5.0 * x[0], 1.3 + x[2]) + ldexp(x[1] * t, 3);
    r[2] = scalbn(x[3], -2) * scalbln(t, 1L) + remainder(x[1], 0.7);
}
