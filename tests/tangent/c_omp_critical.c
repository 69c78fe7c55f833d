// radtap: -head omp_critical -vars "x p" -outvars "y e"
// sizes: n=9 x=n y=n e=1
// `#pragma omp critical` in a parallel loop (issue 45): each iteration adds its share to
// a shared total *e inside a named critical section (a single statement) and to a local
// one inside an unnamed one (a block), with private temporaries. The tangent keeps the
// derivative updates inside the critical sections; the adjoint's critical sections read
// ē and increment p̄ and the temporaries' adjoints, its iterations recomputed on their
// threads (the totals are not incremented again).
#include <math.h>

void omp_critical(int n, const double *x, double p, double *y, double *e)
{
    int i;
    double acc = 0.0;
    *e = 0.0;
#pragma omp parallel for
    for (i = 0; i < n; i++) {
        double t = x[i] * x[i];
        double u = sin(t) * p;
        y[i] = u + t * x[i];
#pragma omp critical (energy)
        *e += u * t;
#pragma omp critical
        {
            acc += p * x[i];
            acc = acc + 0.5 * u;
        }
    }
    *e = *e + acc * acc;
}
