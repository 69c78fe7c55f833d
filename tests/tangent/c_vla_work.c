// radtap: -head vla_rows -vars "x" -outvars "s"
// sizes: n=4 m=3 x=n*m s=1
// C99 variable-length arrays as work arrays of the head, their extents the
// bounds as written (`double t[n]`, `double u[n + 1]`): a helper writes the
// row buffer t inside a loop, the sums read it nonlinearly, so the adjoint
// records the whole VLA each row with no -size.
#include <math.h>

static void sq(int n, const double *x, double *t)
{
    int i;
    for (i = 0; i < n; i++)
        t[i] = x[i] * x[i] + sin(x[i]);
}

void vla_rows(int n, int m, const double *x, double *s)
{
    double t[n];
    double u[n + 1];
    int r, i;
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
}
