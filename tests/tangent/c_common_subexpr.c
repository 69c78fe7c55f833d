// radtap: -head "polar(r c s e)/(x y)"
// sizes: n=5 x=n y=n r=n c=n s=n e=1
// Common sub-expressions of a basic block are computed once before differentiation (issue
// 47): `sqrt(x[i] * x[i] + y[i] * y[i])` in three statements, `exp(-x[i] * y[i])` twice in
// one, `sin(t)` over two declarations; the adjoint differentiates each once. What must not be
// shared: `cos(t)` across `t = t * 2.0` (t changed), `q[1] * x[0]` across a store through
// qp (it points to q), `exp(y[1])` in an `if` branch and after it (another
// block).
#include <math.h>

void polar(int n, const double *restrict x, const double *restrict y, double *restrict r,
           double *restrict c, double *restrict s, double *e) {
    double acc = 0.0;
    double q[4] = {1.0, 2.0, 3.0, 4.0};
    double *qp = q;
    for (int i = 0; i < n; i++) {
        r[i] = sqrt(x[i] * x[i] + y[i] * y[i]);
        c[i] = x[i] / sqrt(x[i] * x[i] + y[i] * y[i]);
        s[i] = y[i] / sqrt(x[i] * x[i] + y[i] * y[i]);
        acc = acc + exp(-x[i] * y[i]) * c[i] + exp(-x[i] * y[i]) * s[i];
    }
    double t = x[0] * y[1];
    double u = sin(t) * cos(t);
    double v = sin(t) / (1.0 + cos(t) * cos(t));
    t = t * 2.0;
    acc = acc + u * v + cos(t);
    double m = q[1] * x[0];
    qp[1] = x[1] * 3.0;
    acc = acc + q[1] * x[0] + m;
    if (acc > 0.0)
        acc = acc + exp(y[1]);
    acc = acc * exp(y[1]);
    *e = acc;
}
