// radtap: -head fwd -vars "x" -outvars "y"
// sizes: n=5 x=n y=n
// Prototypes at the top (one with a VLA parameter), the head first, then the
// helpers it calls (two levels) defined after their callers.
#include <math.h>

static double inner(double t);
static void middle(int n, const double x[n], double y[n]);
void fwd(int n, const double *x, double *y);

void fwd(int n, const double *x, double *y)
{
    int i;
    middle(n, x, y);
    for (i = 0; i < n; i++)
        y[i] += inner(x[i]);
}

static void middle(int n, const double x[n], double y[n])
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i] * inner(x[i] + 0.1);
}

static double inner(double t)
{
    return sin(t) * t + 0.5 * t * t;
}
