// radtap: -head lvafter -vars "x" -outvars "y"
// sizes: n=5 x=n y=2
// A loop whose body the forward sweep does not need (w only feeds a derivative), and whose
// variable's final value a derivative reads after it (`w * i`): the forward sweep must still
// run the loop for the value it leaves in `i` (it was dropped, and `i` kept the value of
// the loop before: a wrong derivative).
void lvafter(int n, const double *x, double *y)
{
    int i;
    double w;
    y[1] = 0.0;
    for (i = 0; i < n - 2; i++)
        y[1] = y[1] + x[i] * x[i];
    w = x[0];
    for (i = 0; i < n - 1; i++)
        w = w * 0.5 + x[i + 1];
    y[0] = x[0] + w * i;
}
