// radtap: -head chain -vars "x w" -outvars "y"
// sizes: n=4 x=n w=n y=2
// Checkpointed calls in a loop whose callees overwrite an output before reading it: the
// snapshot of `t` (written only, by `centre`) and of `v` (written only, by `scale`) is not
// restored before the callee's adjoint re-runs it; `u` (read then written by `scale`) and
// `s` (read by `acc`) are (issue 21).
#include <math.h>

void centre(int n, const double *x, const double *w, double *t)
{
    int i;
    for (i = 0; i < n; i++)
        t[i] = x[i] - 0.5 * w[i];
}

void scale(int n, const double *t, double *u, double *v)
{
    int i;
    for (i = 0; i < n; i++) {
        v[i] = sin(t[i]) * u[i];
        u[i] = u[i] * cos(t[i]) + 0.1 * t[i] * t[i];
    }
}

void acc(int n, const double *v, double *s)
{
    int i;
    for (i = 0; i < n; i++)
        *s = *s + v[i] * v[i] * (*s);
}

void chain(int n, const double *x, const double *w, double *y)
{
    double t[4], u[4], v[4];
    double s = 0.5;
    int i, k;
    for (i = 0; i < n; i++)
        u[i] = w[i];
    y[0] = 0.0;
    for (k = 0; k < 3; k++) {
        centre(n, x, w, t);
        scale(n, t, u, v);
        acc(n, v, &s);
        y[0] = y[0] + v[k] * t[k + 1];
    }
    y[1] = s * u[2];
}
