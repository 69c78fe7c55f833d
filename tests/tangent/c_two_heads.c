// radtap: -head "system_energy(energy)/(pos mass) system_forces(force)/(pos mass)"
// sizes: n=4 pos=2*n mass=n energy=1 force=2*n
// Two heads differentiated in one run, Tapenade style (the suites check the
// first, system_energy; the CLI test checks both compile and run): both build
// a heap array of Particle structs (malloc(n * sizeof(Particle)), freed), fill
// it through parts[i], (parts + i)-> and pass &(parts[i]) to the helper
// pair_energy on Particle * that both share.
#include <math.h>
#include <stdlib.h>
#include "c_two_heads.h"

double pair_energy(const Particle *a, const Particle *b)
{
    double dx = (a->pos[0]) - b->pos[0];
    double dy = a->pos[1] - (b->pos[1]);
    double r2 = dx * dx + dy * dy + 1.0;
    return a->mass * b->mass / sqrt(r2);
}

static void load(int n, const double *pos, const double *mass, Particle *parts)
{
    int i;
    for (i = 0; i < n; i++) {
        (parts[i]).mass = mass[i];
        parts[i].pos[0] = pos[2 * i];
        (parts + i)->pos[1] = pos[2 * i + 1];
    }
}

void system_energy(int n, const double *pos, const double *mass, double *energy)
{
    Particle *parts = (Particle *)malloc(n * sizeof(Particle));
    int i, j;
    load(n, pos, mass, parts);
    *energy = 0.0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            *energy = *energy + pair_energy(&(parts[i]), &parts[j]);
    free(parts);
}

void system_forces(int n, const double *pos, const double *mass, double *force)
{
    Particle *parts = (Particle *)malloc(n * sizeof(Particle));
    int i, j;
    load(n, pos, mass, parts);
    for (i = 0; i < n; i++) {
        force[2 * i] = 0.0;
        force[2 * i + 1] = 0.0;
        for (j = 0; j < n; j++)
            if (j != i) {
                force[2 * i] = force[2 * i] + pair_energy(&(parts[i]), &(parts[j])) * (parts[i].pos[0] - parts[j].pos[0]);
                force[2 * i + 1] = force[2 * i + 1] + pair_energy(&(parts[i]), &(parts[j])) * (parts[i].pos[1] - parts[j].pos[1]);
            }
    }
    free(parts);
}
