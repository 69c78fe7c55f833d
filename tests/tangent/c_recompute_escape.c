// radtap: -head rc_escape -vars "x m" -outvars "y"
// sizes: n=4 x=3*n m=n y=1
/* Review regression (recompute.rs): the work array's address escapes to a global through a
   call (`remember`); another call (`poke`) writes the array through that global between the
   cheap call `center` and the array's reader. Running `center` again before `weigh`'s
   adjoint would lose `poke`'s write: the array stays recorded. */
double *gp;

void remember(double *p)
{
    gp = p;
}

void poke(double s)
{
    gp[0] = gp[0] + s;
}

void center(int n, const double *x, const double *m, double *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = x[i] - m[i];
}

double weigh(int n, const double *v)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s = s + (i + 1) * v[i] * v[i];
    return s;
}

void rc_escape(int n, const double *x, const double *m, double *y)
{
    int k;
    double xc[4];
    remember(xc);
    y[0] = 0.0;
    for (k = 0; k < 3; k++) {
        center(n, &x[k * n], m, xc);
        poke(3.0);
        y[0] = y[0] + weigh(n, xc) * m[k];
    }
}
