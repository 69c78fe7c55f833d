// radtap: -head binom -vars "x c" -outvars "y"
// sizes: n=4 x=n y=1
// The directive BINOMIAL-CKP on a nonlinear C time loop of 1,000 steps with 10 snapshots and nsteps
// 1500, well above the trip count: the schedule's first forward sweep ends early
// (adBinomial_resize). The peak stack is checked against store-all in tests/adjoint.rs.
#include <math.h>

void binom(int n, const double *x, double c, double *y)
{
    double u[4], v[4], acc;
    int it, k, km;
    for (k = 0; k < n; k++)
        u[k] = x[k];
    // $AD BINOMIAL-CKP 1500 10 0
    for (it = 0; it < 1000; it++) {
        for (k = 0; k < n; k++)
            v[k] = u[k];
        for (k = 0; k < n; k++) {
            km = k == 0 ? n - 1 : k - 1;
            u[k] = v[k] + 0.001 * (c * sin(v[km]) - 0.5 * v[k] * v[k] * v[k]);
        }
    }
    acc = 0;
    for (k = 0; k < n; k++)
        acc = acc + u[k] * u[k];
    *y = acc;
}
