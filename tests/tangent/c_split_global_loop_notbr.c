// radtap: -head sp_gloop -vars "x" -outvars "y" -nooptim tbr
// sizes: n=3 x=n y=1
/* The same with `-nooptim tbr` (every assignment records what it overwrites, but still not
   the loop header): one loop is enough. */
int gi;

void sq(int n, double *w)
{
    int j;
    for (j = 0; j < 1; j++)
        for (gi = 0; gi < n; gi++)
            w[gi] = w[gi] * w[gi] + 0.1;
}

void sp_gloop(int n, const double *x, double *y)
{
    int i;
    double s;
    double w[3];
    for (i = 0; i < n; i++)
        w[i] = x[i];
    gi = 1;
    s = x[gi] * x[gi];
    /* $AD NOCHECKPOINT */
    sq(n, w);
    y[0] = s;
    for (i = 0; i < n; i++)
        y[0] = y[0] + w[i];
}
