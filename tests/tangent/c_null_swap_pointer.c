// radtap: -head rotate -vars "x" -outvars "s"
// sizes: n=5 nt=3 x=n s=1
// Two heap buffers rotated by pointer in a time loop through a swap pointer initialised to
// NULL (`double *tmp = NULL;`), as such loops are written. Both modes refused the NULL ("an
// active value here has no derivative radtap can reach"): a null pointer's twin is null.
#include <stdlib.h>

void rotate(int n, int nt, const double *x, double *s)
{
    double *u = (double *)malloc(n * sizeof(double));
    double *w = (double *)malloc(n * sizeof(double));
    double *tmp = NULL;
    double *spare = 0;
    int it, i;
    for (i = 0; i < n; i++)
        u[i] = x[i];
    for (it = 0; it < nt; it++) {
        for (i = 0; i < n; i++)
            w[i] = u[i] * u[i] * 0.5 + 0.1 * u[(i + 1) % n];
        tmp = u;
        u = w;
        w = tmp;
    }
    spare = u;
    *s = 0.0;
    for (i = 0; i < n; i++)
        *s += spare[i] * (i + 1);
    free(u);
    free(w);
}
