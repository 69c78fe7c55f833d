// radtap: -head overwrite_calls -vars "x" -outvars "y"
// sizes: n=5 x=n y=4
/* Calls that overwrite an array argument (issue 21): `fill_then_scan` sets `out[0 .. n)` in
   a first loop before reading any of it, so the adjoint neither restores the caller's array
   before re-running the call nor, where nothing else needs the old values, records them.
   The other callees must keep the caller's values: `fill_part` sets only `out[0 .. n-1)` and
   reads `out[n-1]`, `read_first` reads `out[0]` before its loop, `fill_if` writes under a
   condition (never true on the input box) and then reads. Each is called in a loop on the
   same array, so a snapshot left out would show in the gradient. */
#include <math.h>
#include <stdlib.h>

void fill_then_scan(int n, const double *x, double *out)
{
    int i, j;
    for (i = 0; i < n; i++)
        out[i] = x[i] * x[i];
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            out[j] = out[j] + sin(out[i]) * x[i];
}

void fill_part(int n, const double *x, double *out)
{
    int i;
    for (i = 0; i < n - 1; i++)
        out[i] = x[i] * x[i + 1];
    for (i = 1; i < n; i++)
        out[i] = 0.5 * out[i] * out[i - 1] + 0.25;
}

void read_first(int n, const double *x, double *out)
{
    int i;
    double s = out[0];
    for (i = 0; i < n; i++)
        out[i] = x[i] * sin(s) + 0.5;
}

void fill_if(int n, const double *x, double *out)
{
    int i;
    if (x[0] > 2.0) {
        for (i = 0; i < n; i++)
            out[i] = 0.0;
    }
    for (i = 0; i < n; i++)
        out[i] = out[i] * x[i] + 0.1;
}

void overwrite_calls(int n, const double *x, double *y)
{
    int k;
    double t[8], u[8], v[8], z[8];
    double *w = (double *)malloc(n * sizeof(double));
    for (k = 0; k < 8; k++) {
        t[k] = 0.0;
        u[k] = 0.5 + 0.1 * k;
        v[k] = 1.0;
        z[k] = 0.1 * k;
    }
    for (k = 0; k < 4; k++)
        y[k] = 0.0;
    for (k = 0; k < 3; k++) {
        /* Overwritten first, read after the call: recorded, not restored before the re-run. */
        fill_then_scan(n, x, w);
        y[0] = y[0] + w[n - 1] * w[0] * x[k];
        /* Overwritten first, used linearly: not recorded at all. */
        fill_then_scan(n, x, t);
        y[1] = y[1] + t[n - 1] + t[0];
        /* Written in part, read before written, written under a condition: recorded. */
        fill_part(n, x, u);
        y[2] = y[2] + u[n - 1] * x[k];
        read_first(n, x, v);
        y[3] = y[3] + v[n - 1] * x[k];
        fill_if(n, x, z);
        y[3] = y[3] + z[1] * x[k];
    }
    free(w);
}
