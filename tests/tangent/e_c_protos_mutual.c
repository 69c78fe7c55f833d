// radtap: -head pm -vars "x" -outvars "y"
// sizes: y=1
// functions called before their definition (prototypes only above), one of
// them calling the other.
static double g(double t);
static double h(double t, int k);

void pm(double x, double *y)
{
    *y = g(x) + h(x, 3);
}

static double h(double t, int k)
{
    int i;
    double s = t;
    for (i = 0; i < k; i++)
        s = s * 0.5 + g(s);
    return s;
}

static double g(double t)
{
    return t * t + 0.1 * t;
}
