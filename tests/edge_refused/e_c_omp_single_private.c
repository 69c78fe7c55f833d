// radtap: -head "omp_scale(y)/(x)"
// A `single` block writing a private variable of its region (issue 45): the block becomes
// sequential code between the region's loops, where the thread's copy means nothing;
// refused at the block.
void omp_scale(int n, const double *x, double *y)
{
    double s = 0.0;
    int i;
#pragma omp parallel
    {
        double t;
#pragma omp for reduction(+: s)
        for (i = 0; i < n; i++)
            s += x[i];
#pragma omp single
        t = s * s;
#pragma omp for
        for (i = 0; i < n; i++)
            y[i] = x[i] * s;
    }
}
