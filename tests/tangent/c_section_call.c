// radtap: -head sec_outer -vars "x c" -outvars "y"
// sizes: n=40 x=n y=1
// A checkpointed call on a section per iteration, sec_step(2, c, &s[k * 2]), whose callee
// writes v[0 .. b): the snapshot of each call records the 2 elements the callee can write
// through the actual argument, not the whole of s (the peak stack is O(n), checked in
// tests/adjoint.rs, instead of O(n^2)).
#include <math.h>

static void sec_step(int b, double c, double *v)
{
    int i;
    for (i = 0; i < b; i++)
        v[i] = v[i] * cos(c * v[i]) + 0.5 * c * v[i] * v[i];
}

void sec_outer(int n, const double *x, double c, double *y)
{
    double s[40], t;
    int i, k;
    for (i = 0; i < n; i++)
        s[i] = x[i];
    for (k = 0; k < n / 2; k++)
        sec_step(2, c, &s[k * 2]);
    t = 0.0;
    for (i = 0; i < n; i++)
        t = t + s[i] * s[i];
    *y = t;
}
