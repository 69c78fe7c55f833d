// radtap: -head pwalk -vars "x" -outvars "y"
// sizes: n=6 x=n y=n
// Pointers walking arrays: a `for` whose initialisation and step move pointers (p = x, p++),
// a pointer advanced by `q += 2`, a compound `*q *= ...` through it, and a constant
// divided by an active value (2.0 / (1 + x*x): derivative with no run-time division), and a
// `for` whose comma step moves a pointer and the integer index its body reads (p++, i++).
void pwalk(int n, const double *x, double *y)
{
    const double *p;
    double *q;
    int i;
    for (p = x, q = y; p < x + n; p++, q++)
        *q = 2.0 / (1.0 + *p * *p);
    q = y;
    for (i = 0; i + 1 < n; i += 2) {
        *q *= x[i + 1];
        q += 2;
    }
    for (p = x + 1, i = 1; i < n; p++, i++)
        y[i] += *p * y[i - 1];
}
