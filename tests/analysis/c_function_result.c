// radtap: -head norm2 -vars "v"
// Non-void C function; -outvars omitted, so the dependents default to all real
// outputs of norm2: its return value and scratch[] (written). s accumulates
// linearly (not TBR); sqrt(s) makes s needed in the derivative of the return.
// The int n and the loop index i are never active.
#include <math.h>

double norm2(int n, const double *v, double *scratch)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        scratch[i] = v[i] * v[i];
        s += scratch[i];
    }
    return sqrt(s);
}
