// radtap: -head "gauss_logdet(ld)/(b)"
// sizes: n=3 b=9 ld=1
// LAPACK-style functions that return an integer status and overwrite their matrix argument,
// called as `info = chol(n, a);` and `int info2 = chol(n, c);`: the adjoint refused them
// ("a reference to the function `chol` in an expression"), even in the statement of its
// own its message asked for. The call is now a call statement whose result is assigned
// (snapshot of `a`, `chol`; backwards the snapshot restored and `chol_b`), and a
// one-declarator integer declaration initialised by such a call is split first.
#include <math.h>
#include <stdlib.h>

static int chol(int n, double *a)
{
    int i, j, k;
    for (j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (k = 0; k < j; k++)
            s -= a[j * n + k] * a[j * n + k];
        if (s <= 0.0)
            return j + 1;
        a[j * n + j] = sqrt(s);
        for (i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (k = 0; k < j; k++)
                t -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = t / a[j * n + j];
        }
    }
    return 0;
}

/* log det(B B^T + n I) + log det(2 (B B^T + n I)), through two factorisations. */
void gauss_logdet(int n, const double *b, double *ld)
{
    double *a = malloc(n * n * sizeof(double));
    double *c = malloc(n * n * sizeof(double));
    int i, j, k, info;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = (i == j) ? (double)n : 0.0;
            for (k = 0; k < n; k++)
                s += b[i * n + k] * b[j * n + k];
            a[i * n + j] = s;
            c[i * n + j] = 2.0 * s;
        }
    *ld = 0.0;
    info = chol(n, a);
    int info2 = chol(n, c);
    if (info == 0 && info2 == 0)
        for (i = 0; i < n; i++)
            *ld += 2.0 * log(a[i * n + i]) + 2.0 * log(c[i * n + i]);
    free(a);
    free(c);
}
