// radtap: -head gasdyn -vars "rho" -outvars "y"
// sizes: n=4 rho=4 y=2
// Constant macros as gas-dynamics codes write them: bodies that are no single operand
// (`#define GM1 GAMMA-1.0`) used as whole arguments and in comparisons, and a constant
// redefined between two routines (`#undef COEF` / `#define COEF 3.0`). Kept as names, they
// were pasted into derivative products (`GM1 * pow(rho, GM1 - 1) * rhod` read `1.4 - 1.0 *
// ...`) and the generated file gave every routine the last COEF (silently wrong, tangent and
// adjoint agreeing on the second). Such macros are now expanded where they are used.
#include <math.h>

#define GAMMA 1.4
#define GM1 GAMMA-1.0
#define NPTS 4
#define NP1 NPTS+1

#define COEF 2.0
static double part1(double x)
{
    return COEF * x * x;
}
#undef COEF
#define COEF 3.0
static double part2(double x)
{
    return COEF * x * x * x;
}

void gasdyn(int n, const double *rho, double *y)
{
    double s = 0.0;
    int i;
    for (i = 0; i < NP1 - 1 && i < n; i++)
        s += pow(rho[i], GM1) + fmax(GM1, 0.1 * rho[i]) * rho[i];
    y[0] = s;
    y[1] = part1(rho[0]) + part2(rho[1]);
}
