// radtap: -head normalise -vars "x" -outvars "x" -size x=n
// sizes: n=4 x=n
/* A C function called for what it writes through its argument, its `int` status dropped
   (`square_all(x, n);`, as LAPACK-style C helpers return `info`): the tangent called
   `square_all_d(x, xd, n)` without the result's address its derivative takes last, and did
   not compile. */
#include <math.h>

static int square_all(double *x, int n)
{
    int info = 0;
    int i;
    for (i = 0; i < n; i++)
        x[i] = x[i] * x[i] + 0.5 * sin(x[i]);
    if (x[0] > 100.0)
        info = 1;
    return info;
}

void normalise(double *x, int n)
{
    int i;
    square_all(x, n);
    for (i = 1; i < n; i++)
        x[i] = x[i] * x[0];
}
