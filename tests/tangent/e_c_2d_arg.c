// radtap: -head m2d -vars "a" -outvars "y"
// sizes: y=3
// a 2-D array argument double a[3][4] and a row of it passed to a helper as
// a pointer.
static double rowdot(const double *r, int m)
{
    int j;
    double s = 0.0;
    for (j = 0; j < m; j++)
        s += r[j] * r[j];
    return s;
}

void m2d(double a[3][4], double y[3])
{
    int i;
    for (i = 0; i < 3; i++)
        y[i] = rowdot(a[i], 4) + a[i][0] * a[2 - i][3];
}
