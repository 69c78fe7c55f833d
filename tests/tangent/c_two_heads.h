/* Types and prototypes of c_two_heads.c. */
#ifndef C_TWO_HEADS_H
#define C_TWO_HEADS_H

typedef struct {
    double mass;
    double pos[2];
} Particle;

double pair_energy(const Particle *a, const Particle *b);
void system_energy(int n, const double *pos, const double *mass, double *energy);
void system_forces(int n, const double *pos, const double *mass, double *force);

#endif
