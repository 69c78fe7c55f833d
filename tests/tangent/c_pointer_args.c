// radtap: -head wsmooth -vars "x" -outvars "x y"
// sizes: n=6 x=n w=n y=n
// Pointer arguments: active double *x (read and written), passive weights
// const double *w, output through double *y; access by x[i], *(x + i) and a
// local pointer walking y.
void wsmooth(int n, double *x, const double *w, double *y)
{
    int i;
    double *p;
    for (i = 0; i < n; i++)
        *(x + i) = x[i] * (1.0 + 0.1 * w[i]);
    y[0] = x[0] * w[0];
    y[n - 1] = x[n - 1] * w[n - 1];
    for (i = 1; i < n - 1; i++)
        y[i] = 0.25 * x[i - 1] + 0.5 * x[i] * w[i] + 0.25 * x[i + 1];
    p = y;
    for (i = 0; i < n; i++) {
        *p = *p + x[i] * x[i];
        p++;
    }
}
