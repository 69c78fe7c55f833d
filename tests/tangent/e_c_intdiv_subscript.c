// radtap: -head ids -vars "x" -outvars "y"
// sizes: n=8 x=n y=n
// integer division and modulo in subscripts: x[i / 2], x[(i * 3) % n],
// x[n / 2 - 1], y[i % 2].
void ids(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = x[i / 2] * x[(i * 3) % n];
        y[i % 2] += 0.1 * x[n / 2 - 1] * x[i];
    }
}
