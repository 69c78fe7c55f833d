#include <math.h>
#define for_k for (k = 0; k < 3; k++)
void energy(const double *p, const double *v, double *e)
{
    int k;
    double d2 = 0, v2 = 0;
    for_k {
        double d = p[k] - p[k + 3];
        d2 += d * d;
    }
    for_k v2 += v[k] * v[k];
    *e = 0.5 * v2 - 1.0 / sqrt(d2);
}
