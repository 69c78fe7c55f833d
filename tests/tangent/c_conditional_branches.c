// radtap: -head "mixer(e)/(x)"
// sizes: n=6 x=n e=1
// Conditional expressions guarding what their other branch must not compute, as published C
// writes them: an optional weight array that may be NULL, a stencil's neighbour at the
// boundary, a square root of a value that may be negative, a step-size control, a nested
// chain, a conditional inside a larger value (left as written), in an initialiser and in a
// return, a call of a differentiated function in one branch (refused before). Both
// branches' partials were computed whatever the condition: the tangent read `w[i]` through
// NULL (a crash), the adjoint read `u[-1]` and wrote `ub[-1]` at the boundary.
#include <math.h>
#include <stddef.h>

static double wsum(int n, const double *x, const double *w)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s += (w != NULL) ? sqrt(w[i] * x[i]) : sqrt(x[i]);
    return s;
}

static double safe_root(double s)
{
    return s > 0.0 ? sqrt(s) : 2.0 * s;
}

void mixer(int n, const double *x, double *e)
{
    int i;
    double acc = 0.0;
    for (i = 0; i < n; i++) {
        double left = i > 0 ? x[i - 1] : 0.0;
        const double right = (i < n - 1) ? x[i + 1] : 0.0;
        double d = x[i] - 0.5;
        double g;
        g = d > 0.0 ? d * d : (d > -0.2 ? -d : 0.2 * d * d * d);
        acc += 0.5 * (d > 0.0 ? log(d + 1.0) : d) + left * right + g;
        acc += safe_root(x[i] - 0.4);
        acc += d > 0.1 ? safe_root(d) : d * d;
    }
    *e = acc + wsum(n, x, NULL);
}
