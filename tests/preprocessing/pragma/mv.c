void matvec(const double *a, const double *x, double *y, int n)
{
    int i, j;
    #pragma omp parallel for private(j)
    for (i = 0; i < n; i++) {
        double s = 0;
        for (j = 0; j < n; j++) s += a[i * n + j] * x[j];
        y[i] = s * s;
    }
}
double dot(const double *x, const double *y, int n)
{
    int i;
    double s = 0;
    for (i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}
