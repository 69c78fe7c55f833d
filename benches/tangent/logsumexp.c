#include <math.h>

/* Stable log-sum-exp of a vector plus a softplus penalty:
   f(x) = m + log(sum_i exp(x_i - m)) + 1e-3 * sum_i log(1 + exp(x_i)),  m = max_i x_i.
   Returns f; differentiated w.r.t. x. */
double logsumexp(int n, const double *x)
{
    int i;
    double m = x[0];
    double s = 0.0, p = 0.0;
    for (i = 1; i < n; i++)
        if (x[i] > m)
            m = x[i];
    for (i = 0; i < n; i++) {
        s += exp(x[i] - m);
        p += log(1.0 + exp(x[i]));
    }
    return m + log(s) + 1.0e-3 * p;
}
