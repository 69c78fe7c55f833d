// radtap: -head fpfill -vars "p c" -outvars "y"
// sizes: n=6 p=n y=1
// FP-LOOP naming only the state `x` of an iteration that fills the temporary `xn` element by
// element before reading it (issue 44 item 10, C spelling of f_fp_loop_fill.f90):
// `xn[0] = …; for (i = 1; i < n; i++) xn[i] = … xn[i - 1] …;` then the whole of xn is read.
// xn carries nothing to the next iteration, so one converged iteration is taped (peak stack
// and gradient against store-all checked in tests/adjoint.rs); it was warned AD050 and taped
// whole.
#include <math.h>

void fpfill(int n, const double *p, double c, double *y)
{
    double x[n], xn[n], err, s;
    int i, k;
    for (i = 0; i < n; i++)
        x[i] = 1.0;
    err = 1.0;
    k = 0;
    // $AD FP-LOOP "x" adj_reduction=1e-15
    while (err > 1.0e-15 && k < 300) {
        xn[0] = 0.5 * p[0] + 0.3 * cos(c * x[0]);
        for (i = 1; i < n; i++)
            xn[i] = 0.4 * p[i] + 0.25 * sin(x[i]) + 0.2 * xn[i - 1] * x[i - 1];
        err = 0.0;
        for (i = 0; i < n; i++) {
            err = fmax(err, fabs(xn[i] - x[i]));
            x[i] = xn[i];
        }
        k = k + 1;
    }
    s = c * x[n - 1];
    for (i = 0; i < n; i++)
        s = s + p[i] * x[i] * x[i];
    *y = s;
}
