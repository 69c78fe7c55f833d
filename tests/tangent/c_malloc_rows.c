// radtap: -head mrows -vars "x" -outvars "s"
// sizes: n=4 m=3 x=n*m s=1
// Heap work arrays of the head, their extents the allocations' own
// (`malloc(n * sizeof(double))`, `calloc(n + 1, sizeof(double))`): a helper
// writes the row buffer t inside a loop and the sums read it nonlinearly, so
// the adjoint records the whole block each row with no -size; both are freed.
#include <math.h>
#include <stdlib.h>

static void sq(int n, const double *x, double *t)
{
    int i;
    for (i = 0; i < n; i++)
        t[i] = x[i] * x[i] + sin(x[i]);
}

void mrows(int n, int m, const double *x, double *s)
{
    double *t = malloc(n * sizeof(double));
    double *u;
    int r, i;
    u = (double *)calloc(n + 1, sizeof(double));
    *s = 0.0;
    for (i = 0; i <= n; i++)
        u[i] = 1.0;
    for (r = 0; r < m; r++) {
        sq(n, &x[r * n], t);
        for (i = 0; i < n; i++) {
            u[i] = 0.5 * t[i] * u[i + 1];
            *s += t[i] * t[i] + 0.1 * u[i];
        }
    }
    free(u);
    free(t);
}
