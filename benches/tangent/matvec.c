/* Dense matrix-vector product y = A x, A stored row-major as a flat n*n array.
   Differentiated w.r.t. x and A; the dependent is y.
   (The accumulator s is declared at function scope on purpose: see README.md.) */
void matvec(int n, const double *a, const double *x, double *y)
{
    int i, j;
    double s;
    for (i = 0; i < n; i++) {
        s = 0.0;
        for (j = 0; j < n; j++)
            s = s + a[i * n + j] * x[j];
        y[i] = s;
    }
}
