// radtap: -head "omp_last(y)/(x)"
// `lastprivate(t)` of an active variable (issue 45): the tangent carries its derivative
// (`lastprivate(t, td)`); the adjoint is refused at the loop.
void omp_last(int n, const double *x, double *y)
{
    double t = 0.0;
    int i;
#pragma omp parallel for lastprivate(t)
    for (i = 0; i < n; i++) {
        t = x[i] * x[i];
        y[i] = 2.0 * t;
    }
    y[0] = y[0] + t;
}
