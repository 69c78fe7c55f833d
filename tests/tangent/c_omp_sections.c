// radtap: -head omp_sections -vars "x p" -outvars "y z"
// sizes: n=5 x=n y=2 z=n
// `#pragma omp parallel sections` (issue 45): three sections, two of them sharing a
// private temporary a, one a loop, all reading x and the shared parameter p. The tangent
// keeps each section's derivative statements in its section (the tangent's temporaries
// private); the adjoint reverses the construct as sections, each backward section
// recomputing its a on its own thread, p̄ a reduction and x̄'s increments (x[1], x[2] are
// read by several sections) atomic.
#include <math.h>

void omp_sections(int n, const double *x, double p, double *y, double *z)
{
    double a;
#pragma omp parallel sections private(a)
    {
#pragma omp section
        {
            a = sin(x[0]) * p;
            y[0] = a * a;
        }
#pragma omp section
        for (int i = 0; i < n; i++)
            z[i] = cos(x[i]) * p + x[1];
#pragma omp section
        {
            a = x[1] * p;
            if (a > 0.0)
                a = sqrt(a);
            y[1] = a * x[2];
        }
    }
}
