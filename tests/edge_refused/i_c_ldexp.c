// radtap: -head f -vars "x" -outvars "y"
// ldexp from math.h: no rule.
#include <math.h>

void f(double x, double *y)
{
    *y = ldexp(x, 3);
}
