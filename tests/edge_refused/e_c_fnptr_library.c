// radtap: -head f -vars "x" -outvars "y"
// sizes: x=1 y=1
// A function pointer that runs either the C library's `sin` or a function of the program:
// the call through `fn` was taken for a call of `sqr`, the one function with a body passed
// (apply(sin, x) got sqr's value and derivative: silently wrong). Refused at the call.
#include <math.h>

static double sqr(double t)
{
    return t * t;
}

static double apply(double (*fn)(double), double t)
{
    return fn(t);
}

void f(double *x, double *y)
{
    *y = apply(sin, *x) + apply(sqr, *x);
}
