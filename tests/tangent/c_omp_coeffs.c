// radtap: -head omp_filter -vars "x w" -outvars "y"
// sizes: n=12 x=n y=n w=3
// A parallel 3-point filter with shared coefficients w[0..2] (issue 45): every iteration
// reads all of w, so in the reversed loop every iteration increments all of w̄. Atomic
// updates would all contend; the adjoint accumulates w̄ per thread instead, an array
// reduction `reduction(+: wb[:3])`, while x̄'s neighbour increments stay atomic.
#include <math.h>

void omp_filter(int n, const double *x, const double *w, double *y)
{
    int i;
    y[0] = x[0];
    y[n - 1] = x[n - 1];
#pragma omp parallel for
    for (i = 1; i < n - 1; i++) {
        y[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1] + 0.1 * sin(w[1] * x[i]);
    }
}
