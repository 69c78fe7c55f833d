// radtap: -head omp_energy -vars "x k" -outvars "e"
// sizes: n=10 x=n e=1
// A `reduction(+: s)` loop reading a shared scalar k and neighbours (issue 45): the
// tangent reduces s and its derivative together; the adjoint reads s's adjoint in every
// iteration, and k's adjoint is a reduction of the reversed loop.
#include <math.h>

void omp_energy(int n, const double *x, double k, double *e)
{
    double s = 0.0;
    int i;
#pragma omp parallel for reduction(+: s)
    for (i = 0; i < n - 1; i++) {
        double d = x[i + 1] - x[i];
        s += k * d * d + 0.1 * cos(x[i]);
    }
    *e = s;
}
