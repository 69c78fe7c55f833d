// radtap: -head heat1d -vars "u0 kappa" -outvars "u"
// sizes: n=12 u0=n u=n
// 1D heat equation, explicit stencil, 20 steps with r = 0.2*kappa <= 0.3,
// fixed boundary values and a small nonlinear source; the new values go to
// a local buffer that is copied back (two arrays swapped by copying).
#include <math.h>

void heat1d(int n, const double *u0, double kappa, double *u)
{
    double tmp[64];
    const double r = 0.2 * kappa;
    int i, t;
    for (i = 0; i < n; i++)
        u[i] = u0[i];
    for (t = 0; t < 20; t++) {
        tmp[0] = u[0] + r * (1.0 - 2.0 * u[0] + u[1]);
        for (i = 1; i < n - 1; i++)
            tmp[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1])
                   + 0.02 * sin(u[i]);
        tmp[n - 1] = u[n - 1] + r * (u[n - 2] - 2.0 * u[n - 1] + 0.5);
        for (i = 0; i < n; i++)
            u[i] = tmp[i];
    }
}
