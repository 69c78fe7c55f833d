// radtap: -head ii_outer -vars "x c" -outvars "y"
// sizes: n=40 x=n y=1
// The directive II-LOOP on a C `for` loop with independent iterations, each a 20-sub-step
// nonlinear update of x[i] and a call on x[i] by value: every iteration is checkpointed and
// its snapshot is the element x[i] and the scalars, so the peak stack is about one
// iteration's tape plus O(1) per iteration (checked in tests/adjoint.rs).
#include <math.h>

static double ii_inner(double v, double c)
{
    return v * cos(c * v) + 0.5 * c * v * v;
}

void ii_outer(int n, double *x, double c, double *y)
{
    int i, k;
    double t;
    /* $AD II-LOOP */
    for (i = 0; i < n; i++) {
        t = x[i];
        for (k = 0; k < 20; k++)
            t = t + 0.02 * sin(t) * c;
        x[i] = t;
        x[i] = ii_inner(x[i], c);
    }
    *y = 0.0;
    for (i = 0; i < n; i++)
        *y = *y + x[i] * x[i];
}
