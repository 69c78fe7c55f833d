// radtap: -head "fir(y)/(x c)"
// sizes: n=6 m=4 x=n c=m y=n
/* memmove of real data, as filters and windows shift their history (issue 44 item 9): a
   delay line shifted up by one (`memmove(&h[1], h, …)`, overlapping: copied from the last
   element down), a window shifted down (`memmove(w, w + 1, …)`, overlapping the other way),
   a shift between offsets known only at run time, a memmove between two arrays, and
   memset/memcpy through `(void *)` casts. The derivatives move (or are cleared) with the
   values; the adjoint transposes each copy in its own order. */
#include <string.h>

void fir(int n, int m, const double *x, const double *c, double *y)
{
    double h[4];
    double w[8];
    double g[4];
    int i, j, k;
    memset((void *)h, 0, sizeof h);
    for (j = 0; j < 8; j++)
        w[j] = 0.5 * x[j % n];
    for (i = 0; i < n; i++) {
        memmove(&h[1], h, (m - 1) * sizeof(double));
        h[0] = x[i];
        y[i] = 0.0;
        for (j = 0; j < m; j++)
            y[i] += c[j] * h[j];
        memmove(w, w + 1, 7 * sizeof(double));
        w[7] = y[i] * h[m - 1];
        k = i % 3;
        memmove(&w[k], &w[2 - k], 3 * sizeof(double));
        y[i] += w[0] * w[4] + w[2];
    }
    memmove(g, (void *)h, sizeof(double) * 4);
    memcpy((void *)&h[0], &w[2], 2 * sizeof(double));
    for (j = 0; j < m; j++)
        y[j] += g[j] * h[j % 2];
}
