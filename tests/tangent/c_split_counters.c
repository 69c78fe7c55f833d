// radtap: -head tri -vars "x l" -outvars "y"
// sizes: n=4 x=n l=n*(n-1)/2 y=n
/* A packed strictly-lower triangle walked by a counter (`k++` in the inner loop, as
   ADBench's `Qtimesx`), in a callee: in split mode (`-nocheckpoint`, which the corpus suites
   also run) `tri_mul_fwd` does not push `k` at every step; its final value goes over to
   `tri_mul_bwd` with the other locals, which undoes each step (`k = k - 1`). */
#include <math.h>

void tri_mul(int n, const double *l, const double *x, double *out)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        out[i] = x[i];
    k = 0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            out[j] = out[j] + l[k] * sin(x[i]);
            k++;
        }
}

void tri(int n, const double *x, const double *l, double *y)
{
    int i;
    tri_mul(n, l, x, y);
    for (i = 0; i < n; i++)
        y[i] = y[i] * y[i];
}
