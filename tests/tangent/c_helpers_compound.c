// radtap: -head combo -vars "x y" -outvars "z"
// sizes: n=5 x=n z=n
// Helper scale_add called with active (y, x[0]) and constant (2.0, 3.0)
// arguments, helper sq returning double used inside expressions, compound
// assignments += -= *= /= and i++ loops.
#include <math.h>

static void scale_add(double a, double b, double *out)
{
    *out = a * b + sin(a);
}

static double sq(double t)
{
    return t * t + 0.5 * t;
}

void combo(int n, const double *x, double y, double *z)
{
    double c, d;
    int i;
    scale_add(y, x[0], &c);
    scale_add(2.0, 3.0, &d);
    for (i = 0; i < n; i++) {
        z[i] = x[i];
        z[i] += c;
        z[i] *= d * 0.1 + sq(x[i]);
        z[i] -= 0.5 * y;
        z[i] /= 1.0 + sq(y);
    }
    for (i = 1; i < n; i++)
        z[i] += 0.1 * sq(z[i - 1]);
}
