// radtap: -head stc -vars "x" -outvars "y"
// sizes: y=1
// static int local counting the calls of a helper (1, 2 in each call of the head), and a static const table:
// the counter decides the weight.
static double wt(double t)
{
    static int calls = 0;
    static const double tab[3] = {1.0, 2.0, 3.0};
    calls = calls % 2;
    calls++;
    return tab[calls - 1] * t * t;
}

void stc(double x, double *y)
{
    *y = wt(x) + wt(x + 1.0);
}
