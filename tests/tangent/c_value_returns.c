// radtap: -head objective -vars "x" -outvars "f"
// sizes: n=6 x=n f=1
// Functions that return a value before their end, as published C code writes them: a guard
// (`if (v <= eps) return …;`), a clamp, an if/else whose arms both return, a return nested
// two levels deep. The adjoint refused them ("a `return` with a value before the end of the
// function"); they are now restructured around one result variable. The inputs in
// [0.5, 1.5] take every branch somewhere (x[i] * x[i] > 1.2 for some i, not all).
#include <math.h>

static double safe_log(double v, double eps)
{
    if (v <= eps)
        return log(eps);
    return log(v);
}

static double clamp_sq(double v, double hi)
{
    double r = v * v;
    if (r > hi)
        return hi + 0.1 * (r - hi);
    return r;
}

static double smooth_abs(double v, double c)
{
    if (v > c) {
        return v - 0.5 * c;
    } else {
        return 0.5 * v * v / c;
    }
}

static double piecewise(double a, double b)
{
    double s = a * b;
    if (a > 1.0) {
        double t = sin(s);
        if (b > 1.0)
            return t * t + a;
        s = s + t;
    } else {
        if (b < 0.8)
            return exp(-s);
        else
            return exp(-s) * b;
    }
    s = s * a;
    return s + b;
}

void objective(int n, const double *x, double *f)
{
    int i;
    *f = 0.0;
    for (i = 0; i < n; i++) {
        double xi = x[i];
        double xj = x[(i + 1) % n];
        *f += safe_log(xi * xj, 0.6) + clamp_sq(xi, 1.2);
        *f += smooth_abs(xi - 0.9, 0.25) * piecewise(xi, xj);
    }
}
