// radtap: -head "ridge(ridge)/(x)"
// sizes: n=4 x=n grad=n
/* An objective in the shape of NLopt's test functions (issue 44 item 12, `levy`): a
   hand-written gradient filled when `grad` is given, whose statements call a helper on a
   variable that carries a derivative elsewhere (`cube(u)`) but none there (`grad` is no
   dependent). The call's derivative argument is cleared first; in vector mode that was
   `ud = 0.0;` on the array `ud[NBDirsMax]`, which did not compile. */
#include <math.h>

static double cube(double t)
{
    return t * t * t;
}

double ridge(unsigned n, const double *x, double *grad)
{
    unsigned i;
    double u = x[0] + 0.5, v = 2.0 + cos(x[n - 1]);
    double f = cube(u) * v;
    if (grad) {
        for (i = 0; i < n; ++i)
            grad[i] = 0;
        grad[0] = 3 * u * u * v;
        grad[n - 1] -= cube(u) * sin(x[n - 1]);
    }
    for (i = 1; i < n; ++i) {
        u = x[i] - 0.25 * x[i - 1];
        v = 2.0 + cos(x[i]);
        f += cube(u) / v;
        if (grad) {
            grad[i] += 3 * u * u / v + cube(u) * sin(x[i]) / (v * v);
            grad[i - 1] -= 0.75 * u * u / v;
        }
    }
    return f;
}
