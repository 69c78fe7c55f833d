// radtap: -head omp_likelihood -vars "x mu" -outvars "lik"
// sizes: n=11 x=n lik=1
// A likelihood as a product of per-sample densities, `reduction(*: p)` (issue 45, refused
// before): the adjoint records the partial products (no division by a factor, which may be
// zero).
#include <math.h>

void omp_likelihood(int n, const double *x, double mu, double *lik)
{
    double p = 1.0;
    int i;
#pragma omp parallel for reduction(*: p)
    for (i = 0; i <= n - 1; i++) {
        double z = x[i] - mu;
        p *= 0.5 + 0.4 * exp(-0.5 * z * z);
    }
    *lik = p;
}
