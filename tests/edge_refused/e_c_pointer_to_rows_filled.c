// radtap: -head "head(y)/(x c)"
// A heap block of rows held by a pointer to arrays, `double (*a)[M] = malloc(n * sizeof
// *a)`, filled by a callee taking `double a[][M]`: the analyses did not follow the callee's
// writes through it, so `a` had no derivative and the tangent and adjoint dropped y's
// dependence on x (53% off, both modes agreeing, no message). Refused at the declaration.
#include <stdlib.h>
#define M 3

static void fill(int n, const double *x, double a[][M])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = x[i] * (j + 1);
}

void head(int n, const double *x, double c, double *y)
{
    double (*a)[M] = malloc(n * sizeof *a);
    fill(n, x, a);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < M; j++)
            s += c * a[i][j] * a[i][j] * c;
    free(a);
    *y = s;
}
