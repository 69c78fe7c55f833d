// radtap: -head "member_alloc(y)/(x)"
// sizes: n=5 x=n y=1
// A record's pointer member allocated in a differentiated helper (the record
// is the caller's: the helper is split, its backward sweep frees the blocks)
// and inside a loop of the head (each block freed where the backward sweep
// passes its allocation). The adjoint refused both at their line before.
#include <stdlib.h>
#include <math.h>

typedef struct {
    int n;
    double *data;
} Vec;

static void vec_fill_new(Vec *v, int n, const double *x)
{
    int i;
    v->n = n;
    v->data = (double *)malloc(n * sizeof(double));
    for (i = 0; i < n; i++)
        v->data[i] = sin(x[i]);
}

void member_alloc(int n, const double *x, double *y)
{
    int k, i;
    Vec a, b;
    vec_fill_new(&a, n, x);
    y[0] = 0.0;
    for (k = 0; k < 2; k++) {
        b.data = (double *)malloc(n * sizeof(double));
        for (i = 0; i < n; i++)
            b.data[i] = a.data[i] * x[i];
        y[0] += b.data[0] * b.data[n - 1];
        free(b.data);
    }
    free(a.data);
}
