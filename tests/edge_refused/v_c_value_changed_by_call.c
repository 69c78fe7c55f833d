// radtap: -head "f(out)/(x)"
// sizes: out=1
// The same variable passed by value and through the output pointer (`g(z, &z)`). Vector
// mode passes the by-value derivative by address (`const double ad[NBDirsMax]`), the same
// memory as the output's: the second statement read the clobbered derivative (12 instead
// of 6). Refused in vector mode; scalar mode copies it and is right.
static void g(double a, double *r)
{
    *r = a * a;
    *r += a * a;
}

void f(double x, double *out)
{
    double z = x;
    g(z, &z);
    *out = z;
}
