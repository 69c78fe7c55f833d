// radtap: -head sp_gloop -vars "x" -outvars "y"
// sizes: n=3 x=n y=1
/* Review regression (calls.rs, restored_by_callee): a split callee loops over a global
   counter `gi` (inside an outer loop), which the caller reads after the call: the loop
   header's writes of `gi` are not recorded by the callee, so the caller must record `gi`
   around the split call itself. */
int gi;

void sq(int n, double *w)
{
    int j;
    for (j = 0; j < 2; j++)
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
