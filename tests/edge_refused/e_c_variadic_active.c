// radtap: -head "g(g)/(x)"
// sizes:
// A C variadic function (`...`) on the derivative's path: its derivative dropped the
// variable arguments while its callers still passed them (`f_d(x, xd, 2, &f)`, which did
// not compile). Refused at the function. (A variadic function with no derivative, a
// logger taking a `va_list`, is differentiated around: c_variadic_logger.c.)
#include <stdarg.h>

static double scaled_sum(double x, int n, ...)
{
    va_list ap;
    double s = x * x * n;
    va_start(ap, n);
    va_end(ap);
    return s;
}

double g(double x)
{
    return scaled_sum(x, 2, 1.5, 2.5);
}
