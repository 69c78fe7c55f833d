// radtap: -head "omp_bar(y)/(x)"
// `#pragma omp barrier` inside an `omp for` loop (issue 45; OpenMP forbids it there):
// refused at its line in every mode (barriers are supported between the `omp for`
// loops of a parallel region).
void omp_bar(int n, const double *x, double *y)
{
    int i;
#pragma omp parallel
    {
#pragma omp for
        for (i = 0; i < n; i++) {
            y[i] = x[i] * x[i];
#pragma omp barrier
        }
    }
}
