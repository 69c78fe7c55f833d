// radtap: -head fills -vars "x a" -outvars "y"
// sizes: n=4 x=n y=2
// A checkpointed call at the top level of the head gives a local array its first value
// (`double p[2]; project(x, a, p);`): the adjoint records nothing of the uninitialised `p`
// around the call (issue 21); and like terms of an increment merged (`x[i] * rb + x[i] * rb`
// into `2 * (x[i] * rb)`).
#include <math.h>

double sqsum(int n, const double *x)
{
    int i;
    double r = 0.0;
    for (i = 0; i < n; i++)
        r = r + x[i] * x[i];
    return r;
}

void project(int n, const double *x, double a, double *p)
{
    double q[2];
    q[0] = x[0] * a + x[1];
    q[1] = x[2] - a * x[3];
    p[0] = q[0] / (1.0 + q[1] * q[1]);
    p[1] = q[1] * sqsum(n, x);
    p[0] = p[0] * (1.0 + 0.1 * p[1] * p[1]);
}

void fills(int n, const double *x, double a, double *y)
{
    double p[2];
    project(n, x, a, p);
    y[0] = a * (p[0] - x[1]);
    y[1] = p[0] * p[1] + a * a;
}
