// radtap: -head fpw -vars "x c" -outvars "y"
// sizes: n=5 x=n y=1
// The directive FP-LOOP on a C `while` fixed-point loop z = Φ(z; x, c) (a contraction): the
// adjoint tapes one iteration at the converged z and iterates its adjoint until the adjoint
// of z changes by less than 1e-15 (Christianson). Peak stack checked in tests/adjoint.rs.
#include <math.h>

void fpw(int n, const double *x, double c, double *y)
{
    double z[5], znew[5], err, s;
    int i, j, k;
    for (i = 0; i < n; i++)
        z[i] = x[i];
    err = 1.0;
    k = 0;
    /* $AD FP-LOOP "z znew" adj_reduction=1e-15 */
    while (err > 1.0e-15 && k < 300) {
        err = 0.0;
        for (i = 0; i < n; i++) {
            j = (i + 1) % n;
            znew[i] = 0.5 * x[i] + 0.3 * c * sin(z[i]) + 0.2 * z[j];
            err = fmax(err, fabs(znew[i] - z[i]));
        }
        for (i = 0; i < n; i++)
            z[i] = znew[i];
        k = k + 1;
    }
    s = c * z[0];
    for (i = 0; i < n; i++)
        s = s + z[i] * z[i];
    *y = s;
}
