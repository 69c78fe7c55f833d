// radtap: -head "omp_last(y)/(x)"
// `lastprivate(t)` of an active array (issue 45): the tangent carries its derivative
// (`lastprivate(t, tb)`); the adjoint (which gives a scalar's adjoint to the last
// iteration) is refused at the loop.
void omp_last(int n, const double *x, double *y)
{
    double t[2];
    int i;
#pragma omp parallel for lastprivate(t)
    for (i = 0; i < n; i++) {
        t[0] = x[i] * x[i];
        t[1] = x[i];
        y[i] = 2.0 * t[0] * t[1];
    }
    y[0] = y[0] + t[0] - t[1];
}
