#include "funcs.h"
real_t rosen(int n, const real_t *x)
{
    real_t s = 0;
    int i;
    for (i = 0; i + 1 < n; ++i) {
        real_t a = x[i + 1] - x[i] * x[i];
        real_t b = 1 - x[i];
        s += 100 * a * a + b * b;
    }
    return s;
}
