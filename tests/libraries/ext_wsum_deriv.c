#include <math.h>
/* The tangent and adjoint of wsum (ext_wsum.c), written by its user with radtap's calling
   conventions: each real argument followed by its derivative. */
void wsum_d(int n, const double *x, const double *xd, double *e, double *ed, double *s,
            double *sd) {
    *s = 0;
    *sd = 0;
    for (int i = 0; i < n; i++) {
        *s += x[i] * x[i] * sin(x[i]);
        *sd += (2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i])) * xd[i];
        e[i] = exp(0.5 * x[i]);
        ed[i] = 0.5 * e[i] * xd[i];
    }
}

void wsum_b(int n, const double *x, double *xb, double *e, double *eb, double *s, double *sb) {
    for (int i = 0; i < n; i++) {
        xb[i] += (2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i])) * *sb;
        xb[i] += 0.5 * exp(0.5 * x[i]) * eb[i];
        eb[i] = 0;
    }
    *sb = 0;
}
