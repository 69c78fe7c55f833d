// radtap: -head sp_gptr -vars "x" -outvars "y"
// sizes: n=2 x=n y=1
/* Review regression (calls.rs, restored_by_callee): a split callee writes the caller's
   array through a global pointer (in a call: not restored) and through its argument (an
   assignment recording it: restored); the caller must record the array around the call. */
double *gp;

void bump(void)
{
    gp[0] = gp[0] + 1.0;
}

void sq(double *p)
{
    bump();
    p[0] = p[0] * p[0];
}

void sp_gptr(int n, const double *x, double *y)
{
    double s;
    double w[2];
    w[0] = x[0];
    w[1] = x[1];
    gp = w;
    s = w[0] * w[0] * x[1];
    /* $AD NOCHECKPOINT */
    sq(w);
    y[0] = s + w[0] * w[1];
}
