// radtap: -head head -vars "y" -outvars "y e" -size y=3
// sizes: y=3 e=1
// A work array allocated with an integer macro count, `malloc(N * sizeof(double))`, that
// two calls overwrite: recorded whole, N elements (it was refused: "memory not visible").
#include <stdlib.h>
#define N 3
static void sq(int n, const double *x, double *out)
{
    int i;
    for (i = 0; i < n; i++) out[i] = x[i] * x[i];
}
void head(double *y, double *e)
{
    double *tmp = malloc(N * sizeof(double));
    int i;
    sq(3, y, tmp);
    for (i = 0; i < 3; i++) y[i] *= tmp[i];
    sq(3, y, tmp);
    *e = y[0] * tmp[1];
    free(tmp);
}
