// radtap: -head f -vars "x" -outvars "y"
// the Bessel function j0 (POSIX math.h): no rule.
#include <math.h>

void f(double x, double *y)
{
    *y = j0(x) + x;
}
