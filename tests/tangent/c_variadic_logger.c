// radtap: -head "relax(u)/(u)"
// sizes: n=5 u=n
/* A variadic logger taking a `va_list` (`<stdarg.h>`), as SUNDIALS' error handlers in its
   headers: `va_list` was an unknown type (AD030), so no function of a file including them
   could be differentiated. The logger has no derivative; the head calls it and is
   differentiated around it. */
#include <stdarg.h>
#include <stdio.h>
#include <math.h>

static int verbose = 0;

static void note(const char *fmt, ...)
{
    va_list ap;
    if (!verbose) {
        return;
    }
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void relax(int n, double *u)
{
    int i;
    for (i = 1; i < n - 1; i++) {
        u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] * u[i - 1] + sin(u[i + 1]));
    }
    note("relaxed %d points\n", n);
}
