// radtap: -head math_b -outvars "r"
// sizes:
// math.h group B (C99): fmin fmax (never tied) fmod (quotient stays in (1,2))
// hypot cbrt exp2 expm1 log1p log2 log10 erf erfc tgamma lgamma copysign.
#include <math.h>

void math_b(double x, double y, double z, double r[4])
{
    r[0] = fmin(x, y + 2.0) + fmax(x * y, z + 3.0) + 0.3 * fmod(x + 4.0, y + 2.5);
    r[1] = hypot(x, y) + cbrt(x * z) + exp2(0.5 * y) + expm1(0.3 * z)
         + log1p(x) + log2(y + 1.0) + log10(z + 2.0);
    r[2] = erf(x - y) + erfc(z) + tgamma(x + 1.0) + lgamma(y + 2.0);
    r[3] = 0.2 * copysign(x, y - 3.0) + copysign(2.0, z) * y + 2.0;
}
