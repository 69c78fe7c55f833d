// radtap: -head spline_piece -vars "x c" -outvars "y"
// sizes: x=2 c=3 y=2
/* Declarations whose later initialisers read earlier declarators, as published C writes
   them (`double A = (xh - t) / h, B = 1.0 - A;` in a spline): one declaration was one point
   of the analyses, so `B` was taken to depend on `A` before its initialisation and lost its
   derivative (a silently wrong gradient). Now each declarator is its own declaration. */
#include <math.h>

void spline_piece(const double *x, const double *c, double *y)
{
    double h = 0.5 + c[2], A = (c[0] - x[0]) / h, B = 1.0 - A, AB = A * B * c[1];
    double s = sin(x[1]), t2 = s * s + c[2], u = t2 * A;
    y[0] = A * c[1] + B * c[2] + AB;
    y[1] = u * B;
}
