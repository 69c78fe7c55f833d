// radtap: -head mmore -vars "x" -outvars "y"
// sizes: x=3 y=3
// cbrt, expm1, log1p, log2, exp2, asinh, erfc.
#include <math.h>

void mmore(const double x[3], double y[3])
{
    y[0] = cbrt(x[0] + x[1]) + expm1(x[2]);
    y[1] = log1p(x[0] * x[1]) + log2(x[2]) + exp2(x[0]);
    y[2] = asinh(x[1]) * erfc(x[2] - 0.5);
}
