// radtap: -head cst -vars "x" -outvars "y"
// sizes: n=4 x=n
// const everywhere: const int, const double locals, const double *const
// pointer argument, a const global table and a const parameter of a helper.
static const double coef[4] = {1.0, 0.5, 0.25, 0.125};

static double poly(const double t, const double *const c)
{
    const double t2 = t * t;
    return c[0] + c[1] * t + c[2] * t2 + c[3] * t2 * t;
}

void cst(const int n, const double *const x, double *const y)
{
    const int m = n - 1;
    int i;
    double s = 0.0;
    for (i = 0; i <= m; i++)
        s += poly(x[i], coef);
    *y = s;
}
