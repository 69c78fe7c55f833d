// radtap: -head "energy(e)/(pos m) forces(f)/(pos)"
// Two heads: `scale` gets a derivative argument for `m` (active in energy), but in
// forces `m` is passive: a zero scalar was passed for the array (did not compile).
#include <math.h>

static void scale(int n, const double *pos, const double *m, double *t)
{
    int i;
    for (i = 0; i < n; i++)
        t[i] = pos[i] * m[i];
}

void energy(int n, const double *pos, const double *m, double *e)
{
    double t[8];
    int i;
    scale(n, pos, m, t);
    *e = 0.0;
    for (i = 0; i < n; i++)
        *e = *e + sin(t[i]);
}

void forces(int n, const double *pos, const double *m, double *f)
{
    double t[8];
    int i;
    scale(n, pos, m, t);
    for (i = 0; i < n; i++)
        f[i] = cos(t[i]);
}
