// radtap: -head omp_maxnorm -vars "x" -outvars "r"
// sizes: n=10 x=n r=1
#include <math.h>

void omp_maxnorm(int n, const double *x, double *r)
{
    double m = 0.0;
    int i;
#pragma omp parallel for reduction(max: m)
    for (i = 0; i < n; i++) {
        double a = fabs(x[i]) * (1.0 + 0.1 * sin(x[i]));
        if (a > m)
            m = a;
    }
    *r = m;
}
