// radtap: -head f -vars "x" -outvars "y"
// sizes: x=2 y=1
// A call to a library function whose header radtap does not read (no body, no prototype in
// view): it scales `t` in place. It was taken as having no effect (`td` kept its value, no
// diagnostic, exit 0: a silently wrong derivative); an unknown routine is refused where it
// may touch active data, as it is with its prototype in view (issue 51).
#include <extlib.h>

void f(double *x, double *y)
{
    double t = x[0] * 2.0;
    ext_scale(&t, 3);
    *y = t * x[1];
}
