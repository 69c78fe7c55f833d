// radtap: -head head -vars "a" -outvars "s"
// sizes: a=4 s=1
// Function-like macros whose expansion reads active data: `A(0)` (from the header) reads
// `a[0]` though its argument is a constant; `SQR(*t)` has an active argument; `IDX` only
// computes a subscript, `N` is an integer constant (an extent and a loop bound). The
// derivative is that of the expanded code (it was `*sd = ad[2]`, the `A(0) * A(1)` term
// dropped as if the macro were a passive constant).
#include <stdlib.h>
#include "c_macro_function_like.h"
#define SQR(x) ((x) * (x))
#define IDX(i, j) ((i) * 2 + (j))
#define MAX(p, q) ((p) > (q) ? (p) : (q))

void head(double *a, double *s)
{
    int i;
    double *t = malloc(N * sizeof(double));
    for (i = 0; i < N; i++)
        t[i] = A(i) * a[3];
    *s = A(0) * A(1) + a[2];
    *s += SQR(*t) + MAX(t[1], t[2]) * a[IDX(1, 1)];
    *s += SQR(SQR(a[1]));
    free(t);
}
