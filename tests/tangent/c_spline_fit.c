// radtap: -head "spline_energy(spline_energy)/(y h)"
// sizes: n=6 y=n
// Natural cubic spline through y: the second derivatives solve a tridiagonal
// system by the Thomas algorithm in a helper on pointers (heap work arrays for
// the modified coefficients, freed; a backward substitution loop), the
// system's diagonals in VLAs and on the heap, &(m[1]) for the interior
// unknowns, the bending energy returned by value.
#include <math.h>
#include <stdlib.h>
#include "c_spline_fit.h"

void thomas_solve(int n, const double *a, const double *b, const double *c,
                  const double *r, double *x)
{
    double *cp = (double *)malloc(n * sizeof(double));
    double *dp = (double *)malloc(n * sizeof(double));
    double den;
    int i;
    cp[0] = c[0] / b[0];
    dp[0] = r[0] / b[0];
    for (i = 1; i < n; i++) {
        den = b[i] - (a[i]) * cp[i - 1];
        cp[i] = c[i] / den;
        dp[i] = (r[i] - a[i] * dp[i - 1]) / den;
    }
    x[n - 1] = dp[n - 1];
    for (i = n - 2; i >= 0; i--)
        x[i] = dp[i] - (cp[i]) * x[i + 1];
    free(cp);
    free(dp);
}

double spline_energy(int n, const double *y, double h)
{
    double a[n - 2], b[n - 2], c[n - 2];
    double *r = (double *)malloc((n - 2) * sizeof(double));
    double *m = (double *)calloc(n, sizeof(double));
    double e = 0.0;
    int i;
    for (i = 0; i < n - 2; i++) {
        a[i] = h;
        b[i] = 4.0 * h;
        c[i] = h;
        r[i] = 6.0 * ((y[i + 2] - y[i + 1]) - (y[i + 1] - y[i])) / h;
    }
    thomas_solve(n - 2, a, b, c, r, &(m[1]));
    for (i = 0; i < n - 1; i++)
        e = e + h * (m[i] * m[i] + m[i] * m[i + 1] + (m[i + 1]) * m[i + 1]) / 3.0;
    free(r);
    free(m);
    return e;
}
