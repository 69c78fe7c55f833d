// radtap: -head "f(f)/(x)" -size tmp=n
// sizes: n=4 nt=5 x=n
// A time loop under BINOMIAL-CKP whose buffers are rotated by pointer (tmp = u; u = w;
// w = tmp;). The schedule's snapshots record what the pointers point to, not where: the
// re-runs rotated the buffers a different number of times (dot-product error 0.02 to 0.99,
// and a crash when tmp was not set before the loop). Refused at the pointer assignment.
#include <stdlib.h>

double f(double *x, int n, int nt)
{
    double *u = (double *)malloc(n * sizeof(double));
    double *w = (double *)malloc(n * sizeof(double));
    double *tmp;
    double s = 0.0;
    int it, i;
    for (i = 0; i < n; i++)
        u[i] = x[i];
    tmp = w;
    /* $AD BINOMIAL-CKP nt 2 0 */
    for (it = 0; it < nt; it++) {
        for (i = 0; i < n; i++)
            w[i] = u[i] * u[i] * 0.5 + 0.1 * u[(i + 1) % n];
        tmp = u;
        u = w;
        w = tmp;
    }
    for (i = 0; i < n; i++)
        s += u[i] * (i + 1);
    free(u);
    free(w);
    return s;
}
