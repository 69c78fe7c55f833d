// radtap: -head pendulum -vars "init k" -outvars "out"
// sizes: nsteps=6 init=2 out=4
// Advancing a state struct in a time loop by struct assignment (`cur = nxt;`), and keeping the
// state of the largest energy (`best = nxt;` under a test), as leapfrog/Verlet integrators are
// written in C. The adjoint refused it ("recording a whole derived-type value"); the overwritten
// struct is now recorded whole, as bytes.
#include <math.h>

typedef struct {
    double q, p;
    double last;
} Phase;

static void leapfrog(const Phase *in, Phase *out, double h, double k)
{
    double pm = in->p - 0.5 * h * k * sin(in->q);
    out->q = in->q + h * pm;
    out->p = pm - 0.5 * h * k * sin(out->q);
    out->last = in->q * in->p;
}

void pendulum(int nsteps, const double *init, double k, double *out)
{
    Phase cur, nxt, best;
    cur.q = init[0];
    cur.p = init[1];
    cur.last = init[0];
    best = cur;
    double emax = -1.0;
    for (int s = 0; s < nsteps; s++) {
        leapfrog(&cur, &nxt, 0.05, k);
        double en = 0.5 * nxt.p * nxt.p + k * (1.0 - cos(nxt.q)) + 0.1 * s;
        if (en > emax) {
            emax = en;
            best = nxt;
        }
        cur = nxt;
    }
    out[0] = cur.q + cur.last;
    out[1] = cur.p * best.last;
    out[2] = best.q * best.p;
    out[3] = emax;
}
