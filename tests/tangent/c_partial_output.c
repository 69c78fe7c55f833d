// radtap: -head partial_out_c -vars "x" -outvars "y" -size y=n
// sizes: n=5 x=n y=n
// A dependent array written only at even indices and not an independent: its odd elements
// keep the caller's values, whose derivative is zero, not whatever the caller passed in yd.
#include <math.h>

void partial_out_c(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i += 2)
        y[i] = x[i] * x[i] + sin(x[n - 1 - i]);
}
