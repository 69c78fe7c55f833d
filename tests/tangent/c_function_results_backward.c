// radtap: -head fres -vars "x" -outvars "y"
// sizes: n=5 x=n y=3
// Function references in expressions, whose results the backward sweep recomputes only
// where an adjoint reads them: `y0 = y0 + sq(x)` needs no value of `sq` backwards (only
// `sq_b`), `y1 = sq(x) * x[0]` needs it, `y2 = lse(n, x) + sq(x) * sq(x)` needs one of
// them, and the nested `sq2(sq(x))` needs the inner value for the outer adjoint call.
#include <math.h>

double sq(int n, const double *x)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s = s + x[i] * x[i];
    return s;
}

double lse(int n, const double *x)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s = s + exp(x[i]);
    return log(s);
}

double sq2(double a)
{
    return a * a * 0.01;
}

void fres(int n, const double *x, double *y)
{
    y[0] = 1.0;
    y[0] = y[0] + sq(n, x);
    y[1] = sq(n, x) * x[0];
    y[2] = lse(n, x) + sq(n, x) * 0.5;
    y[2] = y[2] + sq2(sq(n, x));
}
