// radtap: -head energy -vars "x" -size x=3
// sizes: x=3
/* A function returning a callee's value, `return 2.0 * g(x) + x[0];` (hunt 13): in split
   mode (`-nocheckpoint`, every call split) the forward sweep of `energy_b` computed no result
   and left `g_fwd` out, so `g_bwd` popped what nothing pushed (a crash: "pop from an empty AD
   stack"). The corpus suites run every program split too. */
#include <math.h>

static double g(const double *b)
{
    double e = 0.0, t = 0.0;
    int i;
    for (i = 0; i < 3; i++) {
        t = b[i] * b[i];
        e += sin(t);
    }
    return e;
}

double energy(const double *x)
{
    return 2.0 * g(x) + x[0];
}
