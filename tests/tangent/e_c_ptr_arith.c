// radtap: -head parith -vars "x" -outvars "y"
// sizes: n=6 x=n y=n
// pointer arithmetic: *(x + i), a pointer walking backwards, p[-1], and a
// pointer difference used as an index.
void parith(int n, const double *x, double *y)
{
    const double *q = x + n - 1;
    double *p = y;
    int i;
    for (i = 0; i < n; i++)
        *(y + i) = *(x + i) * 2.0;
    while (q > x) {
        p++;
        *p += *q * p[-1];
        q--;
    }
    y[p - y] += x[0];
}
