// radtap: -head "omp_prod(p)/(x)"
// `reduction(*: p)` of an active variable (issue 45): refused at the loop in both modes.
void omp_prod(int n, const double *x, double *p)
{
    double s = 1.0;
    int i;
#pragma omp parallel for reduction(*: s)
    for (i = 0; i < n; i++)
        s *= x[i];
    *p = s;
}
