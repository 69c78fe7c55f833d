// radtap: -head ando -vars "x" -outvars "y"
// sizes: n=4 x=n
// && and || with pure calls in conditions (short-circuit), inside a loop.
static double sq(double t)
{
    return t * t;
}

static int small(double t)
{
    return t < 2.0;
}

void ando(int n, const double *x, double *y)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++) {
        if (sq(x[i]) < 4.0 && small(x[i]))
            s += sq(x[i]) * x[0];
        if (i > 100 || sq(x[i]) > 0.1)
            s += x[i];
        if (!(small(x[i]) && i < 0))
            s = s * 0.9;
    }
    *y = s;
}
