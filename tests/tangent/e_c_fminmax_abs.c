// radtap: -head fmm -vars "x" -outvars "y"
// sizes: x=3 y=3
// fmax / fmin / fabs with decided choices over [0.5, 1.5]: fmax(x0, x1 + 2),
// fmin(x2, 0.1), fabs(x0 - 3).
#include <math.h>

void fmm(const double x[3], double y[3])
{
    y[0] = fmax(x[0], x[1] + 2.0) * x[2];
    y[1] = fmin(x[2] * x[0], 0.1) + fabs(x[0] - 3.0) * x[1];
    y[2] = fabs(-x[2]) * fmax(x[0] * x[1], -1.0);
}
