// radtap: -head "omp_prod(p)/(x)"
// `reduction(*: s)` of an active variable on a `collapse(2)` nest (issue 45): such
// reductions are differentiated on one loop of unit step; refused at the loop in both modes.
void omp_prod(int n, const double *x, double *p)
{
    double s = 1.0;
    int i, j;
#pragma omp parallel for collapse(2) reduction(*: s)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            s *= x[i * n + j];
    *p = s;
}
