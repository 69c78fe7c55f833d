// radtap: -head "omp_crit(y)/(x)"
// `#pragma omp critical` inside a parallel loop (issue 45) whose update is a product, not
// an increment: its tangent is differentiated (the derivative update stays in the critical
// section), its adjoint refused at the directive (it would need the order the threads ran
// the section in).
void omp_crit(int n, const double *x, double *y)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
#pragma omp critical
        y[0] = y[0] * x[i];
    }
}
