// radtap: -head omp_normalize -vars "x" -outvars "y"
// sizes: n=10 x=n y=n
// A parallel region normalising a vector: an `omp for` reduction of the squared norm, a
// `single` block taking its root, and an `omp for` dividing by it (issue 45: `single` was
// refused before). One thread runs the block between the loops' barriers: the derivatives
// run it as sequential code between the two derivative loops.
#include <math.h>

void omp_normalize(int n, const double *x, double *y)
{
    double s = 0.0;
    double norm = 0.0;
    int i;
#pragma omp parallel
    {
#pragma omp for reduction(+: s)
        for (i = 0; i < n; i++)
            s += x[i] * x[i];
#pragma omp single
        {
            norm = sqrt(s + 1.0e-3);
        }
#pragma omp for
        for (i = 0; i < n; i++)
            y[i] = x[i] / norm;
    }
}
