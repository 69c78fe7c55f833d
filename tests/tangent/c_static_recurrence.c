// radtap: -head "lowpass(y)/(x)"
// sizes: n=5 x=n y=n
// A first-order filter keeping its state in a C `static` local, restarted by a flag on the
// first sample, as signal-processing code does. The declaration's initialiser was read as
// an assignment run at every call, so the state's derivative restarted at zero each call:
// the tangent gave cos(x[i]) instead of the recurrence. The adjoint refuses the function
// (it writes a static local and is called in an expression).
#include <math.h>

static double filt(double v, int first)
{
    static double state = 0.0;
    static const double alpha = 0.6;
    if (first)
        state = 0.0;
    state = alpha * state + (1.0 - alpha) * sin(v);
    return state * state;
}

void lowpass(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = filt(x[i], i == 0) + 0.1 * x[i];
}
