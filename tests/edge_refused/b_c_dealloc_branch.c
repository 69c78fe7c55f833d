// radtap: -head "dealloc_branch(y)/(x)"
// Blocks allocated by helpers (ADBench's get_new_vector) and freed by a
// deallocator: at the top level the adjoint delays the deallocation to the end
// of the backward sweep; inside a branch it cannot (the backward sweep still
// reads the block), so it is refused at its line. The tangent takes both.
#include <stdlib.h>
#include <math.h>

double *get_new_vector(int n)
{
    double *v = (double *)malloc(n * sizeof(double));
    return v;
}

void delete_vector(double *v)
{
    free(v);
}

void dealloc_branch(int n, const double *x, double *y)
{
    int i;
    double *a = get_new_vector(n);
    double *b = get_new_vector(n);
    for (i = 0; i < n; i++) {
        a[i] = sin(x[i]);
        b[i] = a[i] * x[i];
    }
    y[0] = a[0] * b[n - 1];
    delete_vector(a);
    if (n > 1)
        delete_vector(b);
}
