// radtap: -head "top(y)/(x)"
// sizes: n=4 x=n y=1
// A helper (not the head) whose local record owns heap memory it allocates and
// frees at its top level: it sets a member with a twin, but of its own record,
// so the adjoint keeps it checkpointed (split like `resize`, its backward sweep
// had another local record, never allocated).
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
