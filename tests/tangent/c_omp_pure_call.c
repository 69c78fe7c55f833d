// radtap: -head omp_map -vars "x p" -outvars "y"
// sizes: n=7 x=n y=n
// A parallel loop calling a pure function with a shared scalar argument (issue 45).
#include <math.h>

static double act(double u, double p)
{
    return u * tanh(p * u) + 0.25 * u * u;
}

void omp_map(int n, const double *x, double p, double *y)
{
    int i;
#pragma omp parallel for private(i)
    for (i = 0; i < n; i++)
        y[i] = act(x[i], p) * x[i];
}
