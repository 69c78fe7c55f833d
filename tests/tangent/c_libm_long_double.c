// radtap: -head libm_ld -vars "x" -outvars "r"
// sizes:
// The long double math.h family (sinl, expl, powl, ...) inside a double interface: partials in
// long double, the l spellings of every record with a rule.
#include <math.h>

void libm_ld(const double x[3], double r[4])
{
    long double a = x[0], b = x[1], c = x[2];
    long double s = sinl(a) * cosl(b) + tanl(0.3L * c) + asinl(0.4L * a) + acosl(0.3L * b)
        + atanl(c) + atan2l(a, b + 2.0L);
    long double h = sinhl(a) + coshl(b) + tanhl(c) + asinhl(a) + acoshl(2.0L + b * b)
        + atanhl(0.5L * c);
    long double e = expl(a) + exp2l(b) + expm1l(c) + logl(2.0L + a) + log10l(2.0L + b)
        + log2l(2.0L + c) + log1pl(1.0L + a * a);
    long double p = sqrtl(2.0L + a * b) + cbrtl(1.5L + c) + powl(1.5L + a, b)
        + fabsl(a - 3.0L) + copysignl(b, -1.0L) + fminl(a, b) + fmaxl(b, c)
        + fmodl(7.0L + a, 1.3L + c * c) + hypotl(a, c);
    long double g = erfl(a) + erfcl(b) + tgammal(2.0L + c) + lgammal(2.5L + a)
        + fdiml(a, -1.0L) + fmal(a, b, c) + remainderl(5.0L * a, 1.7L) + ldexpl(b, 2)
        + scalbnl(c, 3) + scalblnl(a, -1L);
    r[0] = (double) s;
    r[1] = (double) h;
    r[2] = (double) e;
    r[3] = (double) (p + g * a);
}
