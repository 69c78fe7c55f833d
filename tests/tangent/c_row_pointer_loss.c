// radtap: -head "head(f)/(w)" -size xi=d
// sizes: n=5 d=3 X=15 w=3 f=1
// A loss over the rows of a data matrix walked by a local row pointer, `const double *xi = X
// + i*d;`, as logistic-regression code writes it. In split mode (-nocheckpoint) the backward
// sweep read `xi[j]`, and popped what was recorded through `xi`, with its own uninitialised
// `xi` (a crash): the final value of such a local pointer now goes over with the rest.
#include <math.h>

static double rowdot(int n, int d, const double *X, const double *w)
{
    double loss = 0.0;
    for (int i = 0; i < n; i++) {
        double z = 0.0;
        const double *xi = X + i * d;
        for (int j = 0; j < d; j++)
            z += xi[j] * w[j];
        loss += log(1.0 + z * z);
    }
    return loss;
}

void head(int n, int d, const double *X, const double *w, double *f)
{
    *f = rowdot(n, d, X, w);
}
