// radtap: -head math_a -vars "x y" -outvars "r"
// sizes:
// math.h group A: sin cos tan exp log sqrt pow (real and integral exponent)
// fabs (argument never near 0) atan2 sinh cosh tanh asin acos atan.
#include <math.h>

void math_a(double x, double y, double r[4])
{
    r[0] = sin(x) * cos(0.3 * y) + tan(0.5 * x) + 1.0;
    r[1] = exp(0.5 * x) * log(1.0 + y) + sqrt(x + y) + pow(x, y) + pow(y, 3.0);
    r[2] = fabs(x - 3.0) * y + atan2(x, y + 1.0) + sinh(x) + cosh(0.5 * y)
         + tanh(x - y);
    r[3] = asin(0.5 * x) + acos(0.4 * y) + atan(x * y);
}
