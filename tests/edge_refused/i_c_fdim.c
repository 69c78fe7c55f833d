// radtap: -head f -vars "x" -outvars "y"
// fdim from math.h: no rule.
#include <math.h>

void f(double x, double *y)
{
    *y = fdim(x, 0.2) * x;
}
