// radtap: -head g -vars "x" -outvars "out"
// A routine that reads and rewrites its argument (`halve`), nothing it reads varying, before
// a loop that accumulates into it: its derivative would read yd as the caller left it, and
// copied as primal code yd kept the caller's values. Refused in tangent mode (the adjoint
// needs no reset: nothing varied reaches y before the call).
static void halve(double *y, int n)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = 0.5 * y[i];
}

void g(int n, const double *x, double *y, double *out)
{
    int i;
    halve(y, n);
    for (i = 0; i < n; i++)
        y[i] += x[i] * x[i];
    out[0] = y[0] * y[n - 1];
}
