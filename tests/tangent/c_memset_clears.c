// radtap: -head "accumulate(y)/(x)"
// sizes: n=4 x=n y=n
// memset of real arrays, as C codes reset accumulators: a local array cleared by
// memset(t, 0, sizeof t) and by an element count, a heap work array cleared from an offset
// (&w[k], w + k), a cleared array accumulated into again. Each memset becomes a loop writing
// 0.0, so the derivatives are cleared with the values (they were kept: the tangent added the
// old derivative back).
#include <stdlib.h>
#include <string.h>

void accumulate(int n, const double *x, double *y)
{
    double t[4];
    double *w = (double *)malloc(2 * n * sizeof(double));
    int i;
    for (i = 0; i < 4; i++)
        t[i] = 3.0 * x[i % n];
    memset(t, 0, sizeof t);
    for (i = 0; i < 4; i++)
        t[i] += x[i % n] * x[i % n];
    for (i = 0; i < 2 * n; i++)
        w[i] = x[i % n] * 5.0;
    memset(&w[1], 0, (n - 1) * sizeof(double));
    memset(w + n, 0, n * sizeof(double));
    for (i = 0; i < n; i++)
        w[n + i] += t[i % 4] * w[i];
    memset(t, 0, 2 * sizeof(double));
    for (i = 0; i < n; i++)
        y[i] = w[n + i] + t[i % 4] + x[i];
    free(w);
}
