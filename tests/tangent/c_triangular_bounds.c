// radtap: -head tri -vars "x l" -outvars "y"
// sizes: n=6 x=n l=n*n y=n
// Loops whose bounds read the variables of the loops around them (`for (j = i + 1; …)`,
// `j <= i`, three deep, counting down, under a `while`): the backward sweep evaluates
// them again from the restored outer variables instead of pushing them (issue 21); the
// bound under the `while` reads a counter the body steps, and stays recorded. The void
// helpers `lower_mul` and `shift` (called by the head, `lower_mul` calling `shift`) get
// `static inline` primal copies in the adjoint's file (issue 21, item 6).
#include <math.h>

void shift(int n, const double *a, const double *b, double *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = a[i] - 0.5 * b[i];
}

void lower_mul(int n, const double *l, const double *x, double *out)
{
    int i, j, k;
    double t[8];
    shift(n, x, l, t);
    for (i = 0; i < n; i++)
        out[i] = l[i] * t[i];
    k = 0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            out[j] = out[j] + l[n + k] * sin(t[i]);
            k++;
        }
}

void tri(int n, const double *x, const double *l, double *y)
{
    int i, j, k, c;
    double w[8], v[8];
    for (i = 0; i < n; i++)
        w[i] = x[i];
    for (c = 0; c < 2; c++) {
        shift(n, w, x, v);
        lower_mul(n, l, v, w);
    }
    for (i = 0; i < n; i++)
        y[i] = w[i] * w[i];
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++)
            y[i] = y[i] + 0.1 * y[j] * x[j] / (1.0 + y[i]);
    for (i = 0; i < n; i++)
        for (j = i; j < n; j++)
            for (k = j + 1; k < n; k++)
                y[k] = y[k] + 0.01 * sin(y[j] * x[i]);
    for (i = n - 1; i >= 0; i--)
        for (j = 0; j < i; j++)
            y[j] = y[j] * (1.0 + 0.05 * cos(y[i]));
    c = 0;
    while (c < n - 1) {
        for (j = c + 1; j < n; j++)
            y[j] = y[j] + 0.02 * y[c] * y[j];
        c++;
    }
}
