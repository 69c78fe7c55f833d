// radtap: -head fit_cost_c -vars "p" -outvars "cost"
// sizes: n=4 m=6 p=n t=m pred=m cost=1
/* A weighted least-squares cost written for Tapenade 3.16's interface: the by-value scalar
 * `scale`, overwritten from `p` before it is read, is active inside but not on entry, so it
 * gets no derivative argument (its derivative is a local); the work array `pred` keeps its
 * own as scratch. Drivers written for Tapenade call
 * fit_cost_c_b(n, m, p, pb, t, pred, predb, scale, cost, costb). */
#include <math.h>

void fit_cost_c(int n, int m, const double *p, const double *t, double *pred, double scale,
                double *cost) {
    int i, k;
    scale = 1.0 + 0.5 * p[0] * p[0];
    for (i = 0; i < m; i++) {
        pred[i] = p[n - 1];
        for (k = n - 2; k >= 0; k--)
            pred[i] = pred[i] * t[i] + p[k];
    }
    *cost = 0.0;
    for (i = 0; i < m; i++)
        *cost += exp(-0.1 * pred[i] * pred[i]) * (pred[i] - t[i]) * (pred[i] - t[i]) / scale;
}
