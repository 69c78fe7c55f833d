// radtap: -head ztr -vars "x" -outvars "y"
// sizes: n=5 x=n
// zero-trip loops (for and while never entered) and a loop counting down by 2.
void ztr(int n, const double *x, double *y)
{
    int i;
    double s = x[0];
    for (i = n; i < n; i++)
        s = s * 100.0;
    i = 0;
    while (i > n)
        s = 0.0;
    for (i = n - 1; i >= 0; i -= 2)
        s = s * x[i] + 0.5;
    for (i = n; i > n - 1; i--)
        s += x[i - 1];
    *y = s;
}
