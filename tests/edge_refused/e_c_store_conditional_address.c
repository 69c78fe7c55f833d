// radtap: -head f -vars "x" -outvars "y"
// A store through a conditional address, `*(k > 0 ? &y[0] : &y[1]) = …` (hunt 13): no
// derivative statement was written in any mode, and no word said so. Refused.
void f(int k, const double *x, double *y)
{
    y[0] = 0.0;
    y[1] = 0.0;
    *(k > 0 ? &y[0] : &y[1]) = x[0] * x[0];
}
