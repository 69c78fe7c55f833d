// radtap: -head omp_region -vars "x w" -outvars "y"
// sizes: n=8 x=n w=n y=n
// A parallel region whose work is one `omp for` loop, with private temporaries declared
// in the region (issue 45): the iterations overwrite t and u, which their adjoints need,
// so each backward iteration recomputes them on its thread.
#include <math.h>

void omp_region(int n, const double *x, const double *w, double *y)
{
    int i;
#pragma omp parallel
    {
        double t, u;
#pragma omp for schedule(static)
        for (i = 0; i < n; i++) {
            t = exp(0.3 * x[i]);
            u = t * w[i];
            if (u > 1.0)
                u = sqrt(u);
            y[i] = u * u + t * x[i];
        }
    }
}
