// radtap: -head chain -vars "x" -outvars "y"
// sizes: n=5 x=n y=1
// The AD directive NOCHECKPOINT on the header of relax (every call split: relax_fwd then
// relax_bwd) and before one of two calls to scale (the other stays checkpointed).
#include <math.h>

// $AD NOCHECKPOINT
static void relax(int n, double *a)
{
    for (int i = 1; i < n; i++)
        a[i] = 0.5 * (a[i] + a[i - 1] * cos(a[i]));
}

static void scale(int n, double *a, double w)
{
    for (int i = 0; i < n; i++)
        a[i] = a[i] * (1.0 + w * a[i]);
}

void chain(int n, const double *x, double *y)
{
    double a[5];
    for (int i = 0; i < n; i++)
        a[i] = x[i];
    scale(n, a, 0.1);
    relax(n, a);
    /* $AD NOCHECKPOINT */
    scale(n, a, 0.2);
    relax(n, a);
    *y = 0.0;
    for (int i = 0; i < n; i++)
        *y += a[i] * a[i];
}
