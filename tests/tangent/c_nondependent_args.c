// radtap: -head ndargs_c -vars "x" -outvars "z" -size w=n -size y=n
// sizes: n=4 x=n w=n y=n z=1
// The C twin of f_nondependent_args.f90: w is read and written but not an
// independent (wd on entry is no input of the tangent), y is an active output
// that is not a dependent (yb on entry is no input of the adjoint).
#include <math.h>

void ndargs_c(int n, const double *x, double *w, double *y, double *z) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        w[i] = w[i] * x[i] + 1.0;
        y[i] = x[i] * x[i] + 0.5 * w[i];
    }
    for (int i = 0; i < n; i++) {
        s += 0.5 * y[i] + sin(w[i]);
    }
    *z = s;
}
