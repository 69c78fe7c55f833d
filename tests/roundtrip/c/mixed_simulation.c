/* A small particle simulation combining typedefs, structs, macros, enums, statics and math. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NPART 4
#define NSTEP 50
#define SQ(x) ((x)*(x))

typedef double real;

typedef enum { ALIVE, ESCAPED, STOPPED } State;

typedef struct {
    real x, y;
    real vx, vy;
    State state;
} Particle;

static const real gravity = -9.81;
static real box = 8.0;
static int escaped_total;

static void init(Particle *p, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        p[i].x = (real)i;
        p[i].y = 5.0;
        p[i].vx = 1.0 + 0.5 * i;
        p[i].vy = (real) - (real)i;
        p[i].state = ALIVE;
    }
}

static void advance(Particle *p, real dt)
{
    if (p->state != ALIVE)
        return;
    p->vy += gravity * dt;
    p->x += p->vx * dt;
    p->y += p->vy * dt;
    if (p->y < 0.0) {
        p->y = -p->y;
        p->vy *= -0.8;
    }
    if (p->x > box) {
        p->state = ESCAPED;
        escaped_total++;
    } else if (sqrt(SQ(p->vx) + SQ(p->vy)) < 1e-3) {
        p->state = STOPPED;
    }
}

static real energy(const Particle *p, int n)
{
    real e = 0.0;
    int i;
    for (i = 0; i < n; i++)
        e += 0.5 * (SQ(p[i].vx) + SQ(p[i].vy)) - gravity * p[i].y;
    return e;
}

int main(void)
{
    Particle *ps = calloc(NPART, sizeof(Particle));
    real dt = 0.05;
    int step, i;
    static const char *names[] = {"alive", "escaped", "stopped"};

    if (ps == NULL)
        return 1;
    init(ps, NPART);
    printf("initial energy = %.4f\n", energy(ps, NPART));
    for (step = 1; step <= NSTEP; step++) {
        for (i = 0; i < NPART; i++)
            advance(&ps[i], dt);
        if (step % 10 == 0)
            printf("step %2d energy = %.4f escaped = %d\n", step, energy(ps, NPART), escaped_total);
    }
    for (i = 0; i < NPART; i++)
        printf("p%d: (%.3f, %.3f) %s\n", i, ps[i].x, ps[i].y, names[ps[i].state]);
    free(ps);
    return 0;
}
