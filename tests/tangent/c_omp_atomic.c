// radtap: -head omp_bins -vars "x" -outvars "y"
// sizes: n=11 x=n y=3
// An `omp atomic` update (issue 45): iterations accumulate into the three bins of y.
void omp_bins(int n, const double *x, double *y)
{
    int i;
    y[0] = 0.0;
    y[1] = 0.0;
    y[2] = 0.0;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
#pragma omp atomic
        y[i % 3] += x[i] * x[i] * (1.0 + 0.1 * i);
    }
}
