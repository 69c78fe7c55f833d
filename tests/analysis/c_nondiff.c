// radtap: -head chop -vars "x y c" -outvars "z"
// floor(), (int) casts and comparisons break the varied chain: k = (int)x and
// f = floor(y) carry no derivative, so x is never active (used only in a cast
// and the test x > y) and z's derivative comes from y only via g = y*y.
// c is overwritten by the constant 3.0 before use: no longer varied, so it is
// not active and c*g contributes with a constant factor only.
#include <math.h>

void chop(double x, double y, double c, double *z)
{
    int k = (int) x;
    double f = floor(y);
    double g;
    if (x > y)
        g = y * y;
    else
        g = f + (double) k;
    c = 3.0;
    *z = c * g + f;
}
