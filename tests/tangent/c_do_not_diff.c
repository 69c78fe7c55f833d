// radtap: -head dnd_step -vars "x" -outvars "y"
// sizes: n=6 x=n y=n
// The directives DO-NOT-DIFF ... END-DO-NOT-DIFF around a time-step choice (a CFL-like maximum, a
// branch, an integer part): primal code only, with zero derivative out of the region (the
// true derivative of dt is zero too, so finite differences agree).
#include <math.h>

void dnd_step(int n, const double *x, double *y)
{
    int k, it;
    double dt, m;
    for (k = 0; k < n; k++)
        y[k] = x[k];
    for (it = 0; it < 4; it++) {
        // $AD DO-NOT-DIFF
        m = 0;
        for (k = 0; k < n; k++)
            if (fabs(y[k]) > m)
                m = fabs(y[k]);
        dt = 0.05 / (1 + (int)(m / 10.0));
        // $AD END-DO-NOT-DIFF
        for (k = 1; k < n; k++)
            y[k] = y[k] + dt * sin(y[k - 1]) * y[k];
    }
}
