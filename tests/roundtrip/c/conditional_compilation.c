/* Conditional compilation: radtap runs the C preprocessor on files with #if/#ifdef. */
#include <stdio.h>
#include <math.h>

#define USE_FAST 1
#define N 4

#if USE_FAST
static double norm(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}
#else
static double norm(const double *x, int n)
{
    return 0.0;
}
#endif

int main(void)
{
    double x[N] = {1.0, 2.0, 3.0, 4.0};
#ifdef N
    printf("norm = %.6f\n", norm(x, N));
#endif
    return 0;
}
