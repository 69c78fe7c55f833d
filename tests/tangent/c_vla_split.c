// radtap: -head vla_chain -vars "x" -outvars "y" -size x=n
// sizes: n=5 x=n
/* C99 VLAs as work arrays of a callee that split mode (`-nocheckpoint`) differentiates into
   `step_fwd`/`step_bwd` (hunt 12): the adjoint VLA `tb[n]` lives in `step_bwd` and must be
   zeroed there (the zeroing loop was written into `step_fwd`, and `step_bwd` accumulated into
   whatever the stack held: a silently wrong split adjoint; NaN in an RK4 with VLA stages);
   one VLA declared at the top, one in a loop body. The corpus suites build with
   `-ftrivial-auto-var-init=pattern`, so an uninitialised read shows. */
#include <math.h>

void step(int n, double *x)
{
    double t[n];
    for (int i = 0; i < n; i++)
        t[i] = x[i] * x[i];
    for (int i = 0; i < n; i++)
        x[i] = x[i] + 0.1 * t[i];
}

void stages(int n, double *x)
{
    for (int k = 0; k < 2; k++) {
        double s[n];
        for (int i = 0; i < n; i++)
            s[i] = sin(x[i]) * 0.5;
        for (int i = 0; i < n; i++)
            x[i] = x[i] + s[i] * x[(i + 1) % n];
    }
}

void vla_chain(int n, double *x, double *y)
{
    step(n, x);
    stages(n, x);
    *y = 0.0;
    for (int i = 0; i < n; i++)
        *y += x[i] * x[i];
}
