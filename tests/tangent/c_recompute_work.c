// radtap: -head work_arrays -vars "x m" -outvars "y"
// sizes: n=4 x=3*n m=n y=7
/* Work arrays filled by cheap calls in a loop (issue 21, `recompute.rs`): `center` sets
   `xc[0 .. n)` from inputs nothing writes, and only `weigh` (the next statement) reads
   `xc`, so the adjoint runs `center` again before `weigh`'s adjoint instead of pushing and
   popping `xc`. Each other work array breaks one condition of that rule and must stay
   recorded; each is filled in the same loop, so a missing record shows in the gradient:
   another statement sets `xp[1]` between `center` and `weigh`; `xr` is read at the start of
   the next iteration; `xs`'s call reads `a`, which the loop body changes before `xs` is read;
   `expcenter` calls `exp` (not cheap); `xv`'s call writes 4, 2, then 4 elements (its count
   changes with `k`), so `weigh` reads at `k = 1` what the call at `k = 0` left. `xa` is
   `xc` again passed as `&xa[0]` (ADBench's GMM spells its work arrays so): run again too. */
#include <math.h>
#include <stdlib.h>

void center(int n, const double *x, const double *m, double *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = x[i] - m[i];
}

void expcenter(int n, const double *x, const double *m, double *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = exp(0.5 * (x[i] - m[i]));
}

double weigh(int n, const double *v)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s = s + (i + 1) * v[i] * v[i];
    return s;
}

void work_arrays(int n, const double *x, const double *m, double *y)
{
    int k, i;
    double *xc = (double *)malloc(n * sizeof(double));
    double *xp = (double *)malloc(n * sizeof(double));
    double xr[4], xs[4], xe[4], xv[4], xa[4], a[4];
    for (i = 0; i < n; i++)
        a[i] = x[i] + 1.0;
    for (i = 0; i < 7; i++)
        y[i] = 0.0;
    for (k = 0; k < 3; k++) {
        center(n, &x[k * n], m, xc);
        y[0] = y[0] + weigh(n, xc) * m[k];
        center(n, &x[k * n], m, xp);
        xp[1] = 0.5 * x[k];
        y[1] = y[1] + weigh(n, xp);
        if (k > 0)
            y[2] = y[2] + xr[0] * xr[1] * x[k];
        center(n, &x[k * n], m, xr);
        y[2] = y[2] + weigh(n, xr) * x[k];
        center(n, &x[k * n], a, xs);
        a[k] = a[k] * x[k + 1];
        y[3] = y[3] + weigh(n, xs);
        expcenter(n, &x[k * n], m, xe);
        y[4] = y[4] + weigh(n, xe) * x[k];
        center(4 - 2 * (k % 2), &x[k * n], m, xv);
        y[5] = y[5] + weigh(n, xv) * m[k];
        center(n, &x[k * n], &m[0], &xa[0]);
        y[6] = y[6] + weigh(n, &xa[0]) * x[k + 1];
    }
    free(xc);
    free(xp);
}
