// radtap: -head "det2(y)/(x)"
// sizes: x=4 y=1
// A matrix stored as row pointers (Numerical Recipes' dmatrix: `double **a`, each row
// allocated on its own): the values stored through `a[i][j]` lost their derivative, and the
// tangent and adjoint were silently wrong (1 0 0 0 instead of x3+1 -x2 -x1 x0). Refused at
// the store until rows held in memory are followed.
#include <stdlib.h>

void det2(const double *x, double *y)
{
    double **a = (double **)malloc(2 * sizeof(double *));
    int i, j;
    for (i = 0; i < 2; i++)
        a[i] = (double *)malloc(2 * sizeof(double));
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            a[i][j] = x[2 * i + j];
    *y = a[0][0] * a[1][1] - a[0][1] * a[1][0] + x[0];
    for (i = 0; i < 2; i++)
        free(a[i]);
    free(a);
}
