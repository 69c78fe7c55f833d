#include <math.h>
#ifdef SINGLE_PRECISION
#include "prec_single.h"
#else
#include "prec_double.h"
#endif
#include "spring.h"

/* Energy of a chain of springs between consecutive points x[0..n-1]. */
real chain_energy(const spring_t *s, const real *x, int n)
{
    real e = 0;
    int i;
    for (i = 0; i + 1 < n; i++) {
        real d = sqrt((x[i + 1] - x[i]) * (x[i + 1] - x[i]) + REAL_ONE) - s[i].rest;
        e += 0.5 * s[i].k * d * d;
    }
    return e;
}
