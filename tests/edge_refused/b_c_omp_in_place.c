// radtap: -head "omp_in_place(x)/(x)"
// A parallel loop updating x[i] in place through a private temporary the adjoint needs
// (issue 45): the tangent runs in parallel; the adjoint, which would recompute each
// iteration from values the loop overwrote, refuses it at the loop.
#include <math.h>
void omp_in_place(int n, double *x)
{
    int i;
    double t;
#pragma omp parallel for private(t)
    for (i = 0; i < n; i++) {
        t = sin(x[i]);
        x[i] = t * t;
    }
}
