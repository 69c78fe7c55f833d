// radtap: -head "omp_crit(y)/(x)"
// `#pragma omp critical` inside a parallel loop (issue 45): refused at its line in every
// mode (its derivative would need the critical section reversed).
void omp_crit(int n, const double *x, double *y)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
#pragma omp critical
        y[0] = y[0] * x[i];
    }
}
