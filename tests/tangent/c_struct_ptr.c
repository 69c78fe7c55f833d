// radtap: -head push_particle -vars "p dt" -outvars "p"
// sizes:
// struct particle passed by pointer: double fields m, q and double array
// fields x[3], v[3] are read and written through p->; the int field id is
// only written (never read as an input).
#include <math.h>

struct particle {
    double x[3];
    double v[3];
    double m;
    double q;
    int id;
};

void push_particle(struct particle *p, double dt)
{
    int i;
    double f;
    for (i = 0; i < 3; i++) {
        f = -p->q * sin(p->x[i]) - 0.1 * p->v[i];
        p->v[i] = p->v[i] + 0.1 * dt * f / p->m;
        p->x[i] = p->x[i] + dt * p->v[i];
    }
    p->q = p->q * exp(-0.1 * dt);
    p->id = 7;
}
