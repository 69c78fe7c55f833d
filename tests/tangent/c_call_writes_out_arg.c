// radtap: -head "lattice(e)/(theta)"
// sizes: n=5 theta=n
// An integer function that also writes a real through a pointer, in a loop (an XY-model
// lattice: neighbour() returns the site and writes the twist phase), and a function whose
// result is stored in one element of a table it writes another element of. The adjoint
// records what the call writes besides the target (it used the last phase for every site),
// the whole table when the call writes into the target's own array (it recorded the target
// element only).
#include <math.h>

static int neighbour(int i, int n, double *phase)
{
    *phase = 0.5 * i;
    return (i + 1) % n;
}

static double coupling(int i, double *next)
{
    *next = 0.5 * i + 1.0;
    return 0.25 * i - 1.0;
}

void lattice(int n, const double *theta, double *e)
{
    int i, k;
    double ph;
    double c[4] = {1.0, 2.0, 3.0, 4.0};
    *e = 0.0;
    for (i = 0; i < n; i++) {
        k = neighbour(i, n, &ph);
        *e += 1.0 - cos(theta[k] - theta[i] + ph);
    }
    for (i = 0; i < n; i++) {
        c[i % 4] = coupling(i, &c[(i + 1) % 4]);
        *e += c[(i + 1) % 4] * sin(theta[i]) + c[i % 4] * theta[i] * theta[i];
    }
}
