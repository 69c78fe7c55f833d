#include <math.h>
#if defined _WIN32
#include "win.h"
#else
#include <unistd.h>
#endif
void rmsnorm(double *o, const double *x, const double *w, int n)
{
    double ss = 0;
    int j;
    for (j = 0; j < n; j++) ss += x[j] * x[j];
    ss = 1.0 / sqrt(ss / n + 1e-5);
    for (j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
}
