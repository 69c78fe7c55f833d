// radtap: -head binomw -vars "x c" -outvars "y"
// sizes: n=4 x=n y=1
// The directive BINOMIAL-CKP on a C `do … while` time loop of 1,000 steps driven by a step
// counter the body advances (nsteps 1500, 10 snapshots): the forward sweep counts the trips
// (at least one), the adjoint reverses the loop under the revolve schedule against that
// count. Peak stack checked against store-all in tests/adjoint.rs.
#include <math.h>

void binomw(int n, const double *x, double c, double *y)
{
    double u[4], v[4], s;
    int it, k, km;
    for (k = 0; k < n; k++)
        u[k] = x[k];
    it = 0;
    /* $AD BINOMIAL-CKP 1500 10 0 */
    do {
        for (k = 0; k < n; k++)
            v[k] = u[k];
        for (k = 0; k < n; k++) {
            km = k - 1;
            if (k == 0)
                km = n - 1;
            u[k] = v[k] + 0.001 * (c * sin(v[km]) - 0.5 * v[k] * v[k] * v[k]);
        }
        it = it + 1;
    } while (it < 1000);
    s = 0.0;
    for (k = 0; k < n; k++)
        s = s + u[k] * u[k];
    *y = s;
}
