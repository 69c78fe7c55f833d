// radtap: -head damped -vars "y" -outvars "out"
// sizes: n=5 y=n out=1
// Functions that work on their by-value parameters, as C code often does (`x = x * a;`,
// `t -= floor(t)`), referenced inside expressions. The write is to the callee's copy, yet
// it was taken for a side effect and refused ("a reference to the function `scale` in an
// expression, as `scale` also writes `x`").
#include <math.h>

static double scale(double x, double a)
{
    x = x * a;
    x += 0.5 * sin(x);
    return x;
}

static double poly(double t, int k)
{
    double acc = 1.0;
    while (k > 0) {
        acc = acc * t + 0.25;
        k--;
    }
    t = acc * t;
    return t;
}

void damped(int n, const double *y, double *out)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s += scale(y[i], 1.0 + 0.1 * i) * poly(y[i], 3) + scale(s, 0.5);
    *out = s;
}
