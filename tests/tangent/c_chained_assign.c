// radtap: -head chain -vars "x" -outvars "y z"
// sizes: n=5 x=n y=n z=n
// C chained assignments with an active value: `s = t = e` on scalars and
// `y[i] = z[i] = e` on array elements, then both targets are read again.
#include <math.h>

void chain(int n, const double *x, double *y, double *z)
{
    int i;
    double s, t;
    s = t = x[0] * x[1];
    for (i = 0; i < n; i++) {
        y[i] = z[i] = sin(x[i]) * s;
        z[i] = z[i] * t + y[i] * y[i];
    }
}
