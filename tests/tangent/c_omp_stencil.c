// radtap: -head omp_stencil -vars "x a" -outvars "y"
// sizes: n=9 x=n y=n
// An OpenMP stencil (issue 45): each iteration writes its own y[i] and reads its
// neighbours x[i-1], x[i+1]. The adjoint loop is parallel too; its increments to the
// neighbours' adjoints are atomic, the shared scalar a's adjoint a reduction.
#include <math.h>

void omp_stencil(int n, const double *x, double a, double *y)
{
    int i;
    y[0] = x[0];
    y[n - 1] = x[n - 1];
#pragma omp parallel for
    for (i = 1; i < n - 1; i++) {
        y[i] = a * x[i - 1] * x[i] + sin(x[i + 1]) - 0.5 * x[i];
    }
}
