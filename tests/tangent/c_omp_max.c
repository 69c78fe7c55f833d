// radtap: -head omp_residual_bounds -vars "x" -outvars "r"
// sizes: n=12 x=n r=2
// The max norm and the smallest component of a stencil residual, reduced in parallel by
// OpenMP `reduction(max: …)` and `reduction(min: …)` (issue 45, refused before): the
// derivative of each is the derivative of the iteration that held the extremum.
#include <math.h>

void omp_residual_bounds(int n, const double *x, double *r)
{
    double big = 0.0;
    double small = 1.0e30;
    int i;
#pragma omp parallel for reduction(max: big) reduction(min: small)
    for (i = 1; i < n - 1; i++) {
        double res = x[i - 1] - 2.0 * x[i] + x[i + 1] + 0.1 * x[i] * x[i];
        double a = fabs(res);
        if (a > big)
            big = a;
        small = fmin(small, res);
    }
    r[0] = big;
    r[1] = small;
}
