// radtap: -head nrsmooth -vars "x" -outvars "y"
// sizes: n=5 x=5 y=1
// A Numerical-Recipes-style 1-based work vector, `v = (double *)malloc(n * sizeof(double)) -
// 1`, indexed v[1..n] and freed by `free(v + 1)`. Vector mode dropped the cast of the
// derivative block, so `- 1` moved it by one byte (a misaligned block, then `free(): invalid
// pointer`); the block is now cast to rows of directions. The adjoint refuses the `free(v +
// 1)` (memory that is not a local pointer's).
#include <stdlib.h>

void nrsmooth(int n, const double *x, double *y)
{
    double *v = (double *)malloc(n * sizeof(double)) - 1;
    double s = 0.0;
    int j;
    for (j = 1; j <= n; j++)
        v[j] = x[j - 1] * x[j - 1];
    for (j = 2; j <= n; j++)
        v[j] = v[j] + 0.5 * v[j - 1];
    for (j = 1; j <= n; j++)
        s += v[j] * j;
    *y = s;
    free(v + 1);
}
