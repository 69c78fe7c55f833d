// radtap: -head "run(y)/(x)"
// sizes: n=4 x=n y=n
// Two heap buffers rotated by pointer (tmp = a; a = b; b = tmp) never designate the same
// block, but one of them passed twice to a callee that writes its second argument is
// aliased: refused, not differentiated as if the arguments were distinct.
#include <stdlib.h>

static void relax(int n, const double *a, double *b)
{
    int i;
    for (i = 0; i < n; i++)
        b[i] = a[i] * a[i] * 0.5;
}

void run(int n, const double *x, double *y)
{
    double *a = malloc(n * sizeof(double));
    double *b = malloc(n * sizeof(double));
    double *tmp;
    int t, i;
    for (i = 0; i < n; i++) {
        a[i] = x[i];
        b[i] = x[i];
    }
    for (t = 0; t < 3; t++) {
        relax(n, a, a);
        tmp = a;
        a = b;
        b = tmp;
    }
    for (i = 0; i < n; i++)
        y[i] = a[i] + b[i];
    free(a);
    free(b);
}
