// radtap: -head omp_phases -vars "x" -outvars "y u"
// sizes: n=10 x=n u=n y=n
// A parallel region with two `omp for` loops separated by `#pragma omp barrier` (issue
// 45): the second phase reads the first phase's neighbours u[i-1], u[i+1], so it must
// not start before the first is complete. Each loop becomes one parallel loop (the
// barrier the end of the first, private t each loop's); the adjoint reverses the phases,
// the second's first, each a parallel loop, the increments to ū's neighbours atomic.
#include <math.h>

void omp_phases(int n, const double *x, double *u, double *y)
{
    int i;
#pragma omp parallel
    {
        double t;
#pragma omp for
        for (i = 0; i < n; i++) {
            t = x[i] * x[i];
            u[i] = sin(t) + x[i];
        }
#pragma omp barrier
#pragma omp for nowait
        for (i = 1; i < n - 1; i++) {
            y[i] = u[i - 1] * u[i + 1] * x[i];
        }
    }
    y[0] = u[0];
    y[n - 1] = u[n - 1];
}
