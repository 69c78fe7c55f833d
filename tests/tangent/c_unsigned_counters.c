// radtap: -head "norms(y)/(x)"
// sizes: n=5 x=n y=2
// Loops over `size_t` and `unsigned` counters starting at 0: the adjoint's reversed loop
// `for (j = n - 1; j >= 0; --j)` never ended for an unsigned j; it is written
// `for (j = n - 1 + 1; j-- > 0;)`.
#include <stddef.h>
#include <math.h>

void norms(size_t n, const double *x, double *y)
{
    size_t j;
    unsigned int k;
    double s = 0.0, t = 0.0;
    for (j = 0; j < n; ++j)
        s += x[j] * x[j];
    for (k = 0; k < 3; k++)
        t += sin(x[k]) * x[k + 1];
    y[0] = sqrt(s);
    y[1] = t * s;
}
