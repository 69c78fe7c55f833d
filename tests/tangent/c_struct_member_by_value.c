// radtap: -head kinetics -vars "prm x" -outvars "y"
// sizes: n=4 x=4 y=2
// Scalar members of a parameter struct passed by value to helpers (`arrhenius(t, prm->ea)`,
// `p.k0`), as reaction kinetics and SPH codes pass their constants. Vector mode passed the
// derivative record's member `prmd->ea` while the derivative was one record per direction:
// the generated code did not compile (then the directions were gathered into a temporary).
// With one derivative record holding the directions innermost, `prmd->ea` is the member's
// row of directions (`double ea[NBDirsMax]`), passed as is.
#include <math.h>

typedef struct {
    double k0;
    double ea;
    double order;
} rate_t;

static double arrhenius(double t, double ea, double k0)
{
    return k0 * exp(-ea / t);
}

static double power_law(double c, double order)
{
    return pow(c, order);
}

void kinetics(int n, const rate_t *prm, const double *x, double *y)
{
    rate_t p = *prm;
    double s = 0.0, r = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        s += arrhenius(1.0 + x[i], prm->ea, p.k0) * power_law(x[i], prm->order);
        r += power_law(p.k0 + x[i], 0.5 * p.order);
    }
    y[0] = s;
    y[1] = r;
}
