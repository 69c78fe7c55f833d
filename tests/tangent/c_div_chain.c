// radtap: -head div_chain -vars "x a"
// sizes: n=5 x=n y=n
/* Chains of divisions whose quotients the adjoint's partials share (issue 21 item 1),
   a compound division, and a returned chain. */
#include <math.h>

double div_chain(int n, const double *x, double a, double *y)
{
    int i;
    double s = 1.0;
    for (i = 0; i < n; i++) {
        y[i] = 10 * (x[i] + a) / (x[i] + 1) / (a + 1) / (x[i] * a + 0.5) / (2 * x[i] - a + 1);
        s /= (x[i] + 1) / (a + x[i]) / (x[i] + 2);
        s = s / (1 + s);
    }
    y[0] += exp(a * x[1]) / (1 + exp(a * x[1])) / (x[0] + 1);
    return 10 * s / (x[0] + a) / (x[1] + 1) / (a + 2);
}
