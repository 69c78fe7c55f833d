// radtap: -head "head(y)/(x)"
// sizes: n=5 x=n y=1
// Work arrays allocated the idiomatic way, `malloc(n * sizeof *w)` and `calloc(n, sizeof
// v[0])`: the adjoint could not fix their element count ("memory ... whose element count
// radtap cannot fix") though `sizeof(double)` was fine.
#include <stdlib.h>

static void fill(int n, const double *x, double *w)
{
    w[0] = x[0];
    for (int i = 1; i < n; i++)
        w[i] = w[i - 1] * x[i];
}

void head(int n, const double *x, double *y)
{
    double *w = malloc(n * sizeof *w);
    double *v = calloc(n, sizeof v[0]);
    fill(n, x, w);
    fill(n, w, v);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += w[i] * w[i] + v[i];
    free(v);
    free(w);
    *y = s;
}
