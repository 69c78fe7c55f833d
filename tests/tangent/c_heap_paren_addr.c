// radtap: -head hpaddr -vars "w" -outvars "y"
// sizes: n=5 w=n y=3
// Addresses inside a malloc'ed block and an argument through syntactic wrappers: `&(g[1])`,
// `&((g)[i])`, `&(*p)`, `(double *)&w[0]`, `p + 0`, `(q)[i]`, `(c) = p + 1`,
// `free((g))`. Each pointer must reach the block it points into, or writes through it are
// lost from the derivative.
#include <math.h>
#include <stdlib.h>

void hpaddr(int n, const double *w, double *y)
{
    double *g = (double *)(malloc(2 * n * sizeof(double)));
    double *a = &(g[1]);
    double *b = &((g)[n]);
    double *c;
    double *p;
    const double *q = (const double *)&w[0];
    int i;
    a[0] = w[0] * w[0];
    for (i = 0; i < n; i++)
        (b)[i] = sin(q[i]) + (q)[i];
    p = &(*b) + 0;
    (c) = (p + 1);
    c[0] = c[0] * w[1];
    y[0] = g[1] + (g)[n] * w[2];
    y[1] = 0.0;
    for (i = 0; i < n; i++)
        y[1] += (g + n)[i] * (*(&(w[i])));
    y[2] = *(&(g[n + 1])) + p[n - 1];
    free((g));
}
