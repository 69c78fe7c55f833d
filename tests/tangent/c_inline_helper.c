// radtap: -head "fit(loss)/(x y a b)"
// sizes: n=6 x=n y=n loss=1
// Small helper functions called in a loop are inlined before differentiation (issue 47):
// `lerp(a, b, x[i])`, `sq(x[i])` and `dist2(x, y, i)` become their expressions in the loop;
// `sq(y[i] - …)` stays a call (its parameter is used twice and the argument is not a plain
// reference), `sq(a)` outside the loop stays a call, `half(i)` (an int argument for a double
// parameter) stays a call, and so does `sigmoid` (it calls `exp`: the adjoint takes its
// partial from the stored result).
#include <math.h>

static double sq(double t) { return t * t; }

static double lerp(double a, double b, double t) { return a + t * (b - a); }

double dist2(const double *p, const double *q, int k) { return (p[k] - q[k]) * (p[k] - q[k]); }

double sigmoid(double z) { return 1.0 / (1.0 + exp(-z)); }

double half(double v) { return 0.5 * v; }

void fit(int n, const double *restrict x, const double *restrict y, double a, double b,
         double *loss) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        s = s + sq(y[i] - lerp(a, b, x[i]));
        s = s + 0.1 * sq(x[i]) * half(i);
        s = s + dist2(x, y, i) * sigmoid(a * x[i] + b);
    }
    s = s + sq(a);
    *loss = s;
}
