// radtap: -head accumulate -vars "x" -outvars "out y"
// sizes: n=5 x=n y=n out=1
// A routine that only writes its argument (`fill`, nothing it reads varies) before a loop
// that accumulates into it: the tangent must reset yd through fill's derivative; copied as
// primal code, yd kept the caller's values and `yd[i] = yd[i] + ...` read them.
static void fill(double *y, int n, double v)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = v;
}

void accumulate(int n, const double *x, double *y, double *out)
{
    int i, k;
    fill(y, n, 0.5);
    for (k = 0; k < 2; k++)
        for (i = 0; i < n; i++)
            y[i] += x[i] * x[k];
    out[0] = y[0] * y[n - 1];
}
