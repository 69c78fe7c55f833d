// radtap: -head "member_snapshot(y)/(x)"
// sizes: n=5 x=n y=1
// A local struct owning heap memory (v.data = malloc(...)) smoothed in place
// by a helper on Vec *, called in a loop: the adjoint's snapshot of each call
// records the block behind v.data (pushReal8Array(v.data, n)), not only the
// struct's bytes (the pointer), which replayed the helper on the last values.
#include <stdlib.h>
#include <math.h>

typedef struct {
    int n;
    double *data;
} Vec;

static void smooth(Vec *v)
{
    int i;
    for (i = 0; i < v->n; i++)
        v->data[i] = sin(v->data[i]) * v->data[i] + 0.5;
}

void member_snapshot(int n, const double *x, double *y)
{
    int i, k;
    Vec v;
    v.n = n;
    v.data = (double *)malloc(n * sizeof(double));
    for (i = 0; i < n; i++)
        v.data[i] = x[i];
    for (k = 0; k < 3; k++)
        smooth(&v);
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] += v.data[i] * v.data[i];
    free(v.data);
}
