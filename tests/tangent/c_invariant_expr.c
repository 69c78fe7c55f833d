// radtap: -head "scale(y s)/(x a b)"
// sizes: n=7 x=n y=n s=1
// Loop-invariant expressions leave their loop before differentiation (issue 47): in the
// first loop `a * b`, `exp(-a)` and `sqrt(a * a + b * b + x[0])` are computed once before it
// (x and y are restrict), and the adjoint's backward loop accumulates their adjoints instead
// of recomputing them and their partials in every iteration. What must stay: `a * b` in the
// second loop (it writes b), `log(a + 3.0)` under an `if` (its loop may never evaluate it),
// `c0 * c1 * w[0]` (w is written through a pointer that is not restrict); `c0 * c1` of local
// scalars moves although w is written through a pointer (their address is never taken).
#include <math.h>

void scale(double *restrict y, const double *restrict x, double a, double b, int n,
           double *restrict s) {
    double acc = 0.0;
    double w[8];
    double c0 = a + 1.0, c1 = b - 0.5;
    for (int i = 0; i < n; i++) {
        y[i] = x[i] / (a * b) + exp(-a) * x[i];
        acc = acc + y[i] * sqrt(a * a + b * b + x[0]);
    }
    for (int i = 1; i < n; i++) {
        b = b * 0.9;
        y[i] = y[i] + x[i] / (a * b);
    }
    for (int i = 0; i < n; i++) {
        if (x[i] > 0.5)
            acc = acc + log(a + 3.0) * x[i];
        acc = acc + x[i] * pow(a, 1.5);
    }
    double *p = w;
    for (int i = 0; i < n; i++)
        w[i] = x[i];
    for (int i = 0; i < n; i++) {
        p[i] = p[i] * (c0 * c1) + c0 * c1 * w[0];
        acc = acc + w[i];
    }
    *s = acc;
}
