// radtap: -head "kernel_sum(e)/(x)"
// sizes: n=6 x=n e=1
// Conditional expressions inside larger values, as published C writes them: a sinc kernel
// `s * (r != 0 ? sin(r)/r : 1)` whose argument is exactly zero on the diagonal, a stencil
// term `x[i] * (i > 0 ? x[i-1]*x[i-1] : 0)` at the boundary, an optional weight array that
// is NULL, and a conditional in a conditional. The adjoint computed both branches' partials
// under a guarded seed: `((r != 0 ? s*eb : 0) / r)` is 0/0 at r = 0 (a NaN gradient), and
// `xb[i-1]` was read and written at i = 0. A branch's contributions are now computed only
// when it is taken (`(c ? x : 0)`, increments `if (c) xb[i-1] += ...`).
#include <math.h>
#include <stddef.h>

static double weighted(int n, const double *x, const double *w)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s += sqrt(x[i]) * (w != NULL ? sqrt(w[i] * x[i]) : 1.0);
    return s;
}

void kernel_sum(int n, const double *x, double *e)
{
    int i, j;
    double acc = 0.0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            double r = x[i] * (double)(i - j);
            acc += x[j] * (r != 0.0 ? sin(r) / r : 1.0);
        }
        acc += x[i] * (i > 0 ? x[i - 1] * x[i - 1] : 0.0) + 2.0;
        acc += 0.5 * (x[i] > 1.0 ? (i < n - 1 ? x[i + 1] / x[i] : log(x[i])) : x[i] * x[i]);
    }
    *e = acc + weighted(n, x, NULL);
}
