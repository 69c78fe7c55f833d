// radtap: -head "copies(y)/(x)"
// sizes: n=4 x=2*n y=2*n
// memcpy of real arrays, as textbook C writes state copies: into a local array, into a heap
// work array and back, into the output, with offsets (&a[k], a + k) and the element size
// written sizeof(double), sizeof *p and sizeof(p[0]); one element copied by sizeof(double)
// alone. radtap writes each as its loop, so the derivatives follow the copied elements.
#include <stdlib.h>
#include <string.h>
#include <math.h>

void copies(int n, const double *x, double *y)
{
    int i;
    double a[8];
    double *w = (double *)malloc(2 * n * sizeof(double));
    memcpy(a, x, 2 * n * sizeof(double));
    for (i = 0; i < 2 * n; i++)
        a[i] = sin(a[i]) * x[(i + 1) % (2 * n)];
    memcpy(w, a, 2 * n * sizeof *w);
    memcpy(&w[n], x, n * sizeof(w[0]));
    memcpy(w + 1, &a[n], sizeof(double));
    for (i = 0; i < 2 * n; i++)
        w[i] = w[i] * w[i] + a[i];
    memcpy(y, w, 2 * n * sizeof(double));
    memcpy(y + n, &w[1], (n - 1) * sizeof(double));
    free(w);
}
