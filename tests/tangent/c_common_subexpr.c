// radtap: -head "polar(r c s e)/(x y)"
// sizes: n=5 x=n y=n r=n c=n s=n e=1
// Common sub-expressions of a basic block are computed once before differentiation (issue
// 47): in `to_polar`, called per point, `sqrt(x * x + y * y)` of three statements (the stores
// through r, c and s cannot change the by-value x and y) and `exp(-x * y)` twice in one;
// `sin(t)` and `cos(t)` over two declarations of `polar`. The adjoint differentiates each
// once. What must not be shared: `cos(t)` across `t = t * 2.0` (t changed), `q[1] * x[0]`
// across a store through qp (it points to q), `exp(y[1])` in an `if` branch and after it
// (another block), anything in a loop's body (the temporary would be recorded per iteration).
#include <math.h>

static void to_polar(double x, double y, double *r, double *c, double *s, double *acc) {
    *r = sqrt(x * x + y * y);
    *c = x / sqrt(x * x + y * y);
    *s = y / sqrt(x * x + y * y);
    *acc = *acc + exp(-x * y) * *c + exp(-x * y) * *s;
}

void polar(int n, const double *restrict x, const double *restrict y, double *restrict r,
           double *restrict c, double *restrict s, double *e) {
    double acc = 0.0;
    double q[4] = {1.0, 2.0, 3.0, 4.0};
    double *qp = q;
    for (int i = 0; i < n; i++) {
        to_polar(x[i], y[i], &r[i], &c[i], &s[i], &acc);
        acc = acc + sqrt(x[i] * x[i] + 1.0) * sqrt(x[i] * x[i] + 1.0);
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
