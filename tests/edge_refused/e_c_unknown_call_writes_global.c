// radtap: -head f -vars "x" -outvars "y"
// sizes: x=2 y=1
// A routine radtap does not know may write any global it can name: `ext_touch` takes no
// pointer, but may change `g`, which carries a derivative here. The call was taken as
// having no effect on `g` (with or without a prototype): refused (issue 51).
#include <extlib.h>

double g;

void f(double *x, double *y)
{
    g = x[0];
    ext_touch(1);
    *y = g * x[1];
}
