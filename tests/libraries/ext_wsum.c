#include <math.h>
/* s = sum x_i^2 sin(x_i); e_i = exp(x_i / 2). */
void wsum(int n, const double *x, double *e, double *s) {
    *s = 0;
    for (int i = 0; i < n; i++) {
        *s += x[i] * x[i] * sin(x[i]);
        e[i] = exp(0.5 * x[i]);
    }
}
