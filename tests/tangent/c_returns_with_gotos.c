// radtap: -head "shifted(y)/(x)"
// sizes: n=6 x=n y=n
/* Returns mixed with `goto`, in the shape of cephes' `gamma` (issue 44 item 7): a
   function reducing its argument by recurrences in `while` loops that jump out to a label
   near the end (`goto small`), a label inside an earlier `if` block reached from below
   (`goto domain`), a value returned early from several branches and an error flag set by a
   helper on the rare paths. The adjoint lowers the body to basic blocks; each return seeds
   the value's adjoint on the path that ran. The file goes through the preprocessor (its
   `#ifndef`), so `HUGE_VAL` is GCC's `__builtin_huge_val()`, a math function: as an
   unknown routine it wrote every global (`merr`), and `guard` in an expression was refused. */
#include <math.h>

#ifndef BIG_ARG
#define BIG_ARG 700.0
#endif

int merr = 0;

static void seterr(int code)
{
    merr = code;
}

static double ratio(double x)
{
    double z, p;
    if (x > 30.0) {
        p = floor(x);
        if (p == x) {
        domain:
            seterr(1);
            return 0.0;
        }
        return exp(-x) * x;
    }
    z = 1.0;
    while (x >= 3.0) {
        x -= 1.0;
        z *= x;
    }
    while (x < 2.0) {
        if (x < 1.0e-9)
            goto small;
        z /= x;
        x += 1.0;
    }
    if (x == 2.0)
        return z;
    x -= 2.0;
    p = (0.5 * x + 1.1) * x + 0.9;
    return z * p / (1.0 + 0.25 * x);

small:
    if (x == 0.0)
        goto domain;
    return z / ((1.0 + 0.577 * x) * x);
}

static double guard(double v)
{
    if (v > BIG_ARG)
        return HUGE_VAL;
    return exp(v);
}

void shifted(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = ratio(0.6 + 1.7 * i + x[i] * x[i]) + x[i] * guard(-0.5 * x[i] * x[i]);
}
