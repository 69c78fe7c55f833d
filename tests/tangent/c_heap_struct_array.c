// radtap: -head energy -vars "q" -outvars "e"
// sizes: n=4 q=2*n e=1
// A heap array of structs (`Body *b = malloc(n * sizeof(Body))`), filled from the inputs
// and read by a helper on `const Body *`: the derivative struct was never declared (the
// tangent and the adjoint said `struct Body_d` and did not compile).
#include <stdlib.h>
#include <math.h>

typedef struct {
    double px;
    double vx;
    double mass;
    int id;
} Body;

static double pair_energy(const Body *a, const Body *c)
{
    double d = a->px - c->px;
    return a->mass * c->mass / sqrt(d * d + 0.5) + 0.25 * (a->vx - c->vx) * (a->vx - c->vx);
}

void energy(int n, const double *q, double *e)
{
    Body *b = (Body *)malloc(n * sizeof(Body));
    int i, j;
    for (i = 0; i < n; i++) {
        b[i].px = q[2 * i];
        b[i].vx = sin(q[2 * i + 1]);
        b[i].mass = 1.0 + 0.1 * i;
        b[i].id = i;
    }
    *e = 0.0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            *e += pair_energy(&b[i], &b[j]);
    free(b);
}
