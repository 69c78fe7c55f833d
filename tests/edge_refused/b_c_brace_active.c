// radtap: -head f -vars "x" -outvars "y"
// a local array brace-initialised with active values: refused by the adjoint
// (hoisted to the top it would read x before it is set, and lose its adjoint).
void f(double x, double *y)
{
    x = 2.0 * x;
    double v[3] = {x, 1.0, x * x};
    *y = v[0] + v[2];
}
