// radtap: -head fmulti -vars "x" -outvars "y"
// sizes: n=6 x=n y=n
// for loops with several variables: i up and j down in one header, comma in
// the increment, and a second loop with two counters stepping differently. The adjoint
// refused the comma steps; such a loop is now a `while` with its step (`il::comma`).
void fmulti(int n, const double *x, double *y)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        y[i] = 0.0;
    for (i = 0, j = n - 1; i < j; i++, j--) {
        y[i] = x[i] * x[j];
        y[j] = x[i] + x[j] * x[j];
    }
    for (k = 0, i = 1; i < n; i += 2, k++)
        y[k] = y[k] + x[i] * (double)(k + 1);
}
