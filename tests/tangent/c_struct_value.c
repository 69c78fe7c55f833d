// radtap: -head spring_energy -vars "s" -outvars "e"
// sizes: e=1
// struct spring passed by value (fields k, rest, ends[2], int nseg); the copy
// is modified locally (nseg set, k scaled) and the result leaves through the
// double *e output.
#include <math.h>

struct spring {
    double k;
    double rest;
    double ends[2];
    int nseg;
};

void spring_energy(struct spring s, double *e)
{
    int i;
    double len, seg;
    s.nseg = 4;
    s.k = s.k * (double)s.nseg;
    len = s.ends[1] + s.ends[0] + 2.0;
    seg = len / s.nseg;
    *e = 0.0;
    for (i = 0; i < s.nseg; i++)
        *e += 0.5 * s.k * (seg - 0.1 * s.rest) * (seg - 0.1 * s.rest);
    *e += 0.1 * s.rest * s.rest + 1.0;
}
