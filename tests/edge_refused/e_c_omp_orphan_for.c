// radtap: -head "omp_orphan(y)/(x)"
// An orphaned `#pragma omp for` (its parallel region is in a caller, issue 45): refused at
// its line in every mode.
#include <math.h>
void omp_orphan(int n, const double *x, double *y)
{
    int i;
#pragma omp for
    for (i = 0; i < n; i++)
        y[i] = exp(x[i]);
}
