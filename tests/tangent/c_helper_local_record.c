// radtap: -head "top(y)/(x)"
// sizes: n=4 x=n y=1
// A helper (not the head) whose local record owns heap memory it allocates and
// frees at its top level, in a program where other helpers resize the members
// of records they are given: it stays checkpointed (its split sweeps would
// each have their own local record).
#include <stdlib.h>
#include <math.h>
typedef struct { int n; double *data; } Vec;
static double helper(int n, const double *x)
{
    Vec v;
    int i;
    double s = 0.0;
    v.n = n;
    v.data = (double *)malloc(n * sizeof(double));
    for (i = 0; i < n; i++)
        v.data[i] = sin(x[i]);
    for (i = 0; i < n; i++)
        s += v.data[i] * v.data[i];
    free(v.data);
    return s;
}
void top(int n, const double *x, double *y)
{
    y[0] = helper(n, x) * x[0];
}
