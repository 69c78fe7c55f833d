// radtap: -head mmix -vars "x" -outvars "y"
// sizes: x=3 y=4
// pow (real and integer exponents), exp, log, sqrt, atan2, hypot, tanh, erf.
#include <math.h>

void mmix(const double x[3], double y[4])
{
    y[0] = pow(x[0], x[1]) + pow(x[2], 3.0) + pow(x[0], 0.5);
    y[1] = exp(x[1]) * log(x[2] + 1.0) / sqrt(x[0]);
    y[2] = atan2(x[0], x[1]) + hypot(x[1], x[2]);
    y[3] = tanh(x[0] * x[2]) + erf(x[1] - 0.3);
}
