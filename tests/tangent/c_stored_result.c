// radtap: -head gated -vars "x w" -outvars "y"
// sizes: n=5 x=n w=6*n y=n
/* Intrinsic results the primal stores and nothing overwrites (issue 21, LSTM's gates): the
   adjoint of `g[n + i] = tanh(...)` reads `g[n + i]` back for the partial `1 - t*t`
   instead of calling `tanh` again (`extent::stored_until_adjoint`); so for the `exp` and
   `sqrt` stores into the other parts of `g`, which the same loop fills apart from each
   other. Each of the other work arrays breaks one condition and must be evaluated again:
   `a[i]` is overwritten by a later loop; `b[i]` by a store of the same loop at another
   iteration (`b[n - 1 - i]`); `c` is written through another pointer `q`; `d` is passed
   to a procedure that overwrites it. Their stored values are read only linearly, so nothing
   records them before they are overwritten: each of those, read back, gives a wrong
   gradient. */
#include <math.h>
#include <stdlib.h>

void scale(int n, double *v, const double *x)
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = 0.5 * x[i];
}

void gated(int n, const double *x, const double *w, double *y)
{
    int i;
    double *g = (double *)malloc(3 * n * sizeof(double));
    double *a = (double *)malloc(n * sizeof(double));
    double *b = (double *)malloc(n * sizeof(double));
    double *c = (double *)malloc(n * sizeof(double));
    double *d = (double *)malloc(n * sizeof(double));
    double *q;
    for (i = 0; i < n; i++) {
        g[i] = exp(w[i] * x[i]);
        g[n + i] = tanh(w[n + i] * x[i] + 0.1);
        g[2 * n + i] = sqrt(1.0 + w[2 * n + i] * w[2 * n + i] * x[i] * x[i]);
    }
    for (i = 0; i < n; i++)
        a[i] = exp(w[3 * n + i] - x[i]);
    for (i = 0; i < n; i++)
        y[i] = g[i] * g[n + i] + g[2 * n + i] * x[i] + a[i];
    for (i = 0; i < n; i++)
        a[i] = x[i] * x[i];
    for (i = 0; i < n; i++) {
        b[i] = tanh(w[4 * n + i] * x[i]);
        y[i] = y[i] * a[i] + b[i];
        b[n - 1 - i] = 3.0 * x[i];
    }
    for (i = 0; i < n; i++)
        c[i] = exp(0.3 * w[5 * n + i] * x[i]);
    for (i = 0; i < n; i++)
        y[i] = 2.0 * y[i] + c[i] + b[i];
    q = c;
    for (i = 0; i < n; i++)
        q[i] = 2.0 * x[i];
    for (i = 0; i < n; i++)
        d[i] = tanh(x[i] * w[i]);
    for (i = 0; i < n; i++)
        y[i] = y[i] * c[i] + d[i];
    scale(n, d, x);
    for (i = 0; i < n; i++)
        y[i] = y[i] * d[i];
    free(g);
    free(a);
    free(b);
    free(c);
    free(d);
}
