// radtap: -head "f(y)/(x)"
// sizes: n=5 x=n y=1
// `k = step(k, x)`: an integer result of a function that writes through its arguments is a
// checkpointed call in joint mode. In split mode `step_bwd` would run with the final `k`
// (the target is not recorded before the call): refused there.
static int step(int k, double *x)
{
    x[k] = x[k] * x[k] + x[k + 1];
    return k + 1;
}

void f(int n, double *x, double *y)
{
    int k = 0, i;
    for (i = 0; i < n - 1; i++)
        k = step(k, x);
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] += x[i] * (i + 1);
}
