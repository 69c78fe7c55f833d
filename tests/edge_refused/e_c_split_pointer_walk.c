// radtap: -head walk -vars "x" -outvars "y"
// sizes: n=5 x=n y=1
// A callee walking its pointer arguments, in split mode (-nocheckpoint): its f_fwd has no
// derivative pointers to move (the output named undeclared `xb`, `wb`).
#include <math.h>

static void fill(int n, const double *x, double *w)
{
    for (int i = 0; i < n; i++) {
        double v = *x++;
        *w++ = sin(v) * v;
    }
}

void walk(int n, const double *x, double *y)
{
    double w[8];
    fill(n, x, w);
    *y = 0.0;
    for (int i = 0; i < n; i++)
        *y += w[i] * w[i];
}
