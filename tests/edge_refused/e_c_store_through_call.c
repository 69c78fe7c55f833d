// radtap: -head f -vars "x" -outvars "y"
// A store through the address a call returns, `*pick(y, 0) = …` (hunt 13): no derivative
// statement was written in any mode, and no word said so (tangent 0 instead of 2.29). Refused:
// radtap cannot follow the address.
static double *pick(double *a, int k) { return &a[k]; }

void f(const double *x, double *y)
{
    y[0] = 0.0;
    *pick(y, 0) = x[0] * x[0];
}
