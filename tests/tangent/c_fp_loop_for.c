// radtap: -head fpf -vars "x c" -outvars "y"
// sizes: n=5 x=n y=1
// The directive FP-LOOP on a counted C `for (k = 0; k < 300; k++)` fixed-point loop that
// leaves by an `if (…) break` as its last statement (see c_fp_loop_break.c): one converged
// iteration taped, its adjoint iterated to 1e-15. Peak stack checked in tests/adjoint.rs.
#include <math.h>

void fpf(int n, const double *x, double c, double *y)
{
    double z[5], znew[5], w, err, s;
    int i, j, k;
    for (i = 0; i < n; i++)
        z[i] = 1.0;
    w = 0.5;
    // $AD FP-LOOP z znew w adj_reduction=1e-15
    for (k = 0; k < 300; k++) {
        err = 0.0;
        for (i = 0; i < n; i++) {
            j = (i + 1) % n;
            znew[i] = 0.4 * x[i] * x[i] + 0.25 * cos(c * z[i]) + 0.2 * z[j] * x[j] + 0.1 * w;
            err = fmax(err, fabs(znew[i] - z[i]));
        }
        w = 0.3 * w + 0.2 * sin(znew[0]);
        for (i = 0; i < n; i++)
            z[i] = znew[i];
        if (err <= 1.0e-15)
            break;
    }
    s = 0.0;
    for (i = 0; i < n; i++)
        s = s + x[i] * z[i];
    *y = s + w;
}
