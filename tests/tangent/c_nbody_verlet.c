// radtap: -head nbody -vars "pos vel mass" -outvars "pos vel epot"
// sizes: n=4 pos=2*n vel=2*n mass=n epot=1
// Simulation-style: 2D softened gravity, velocity Verlet (10 steps), a local
// array of structs, a force helper writing through pointers, pow/sqrt,
// compound assignments and a potential energy output.
#include <math.h>

struct body {
    double f[2];
};

static void forces(int n, const double *pos, const double *mass, struct body *b)
{
    int i, j;
    double dx, dy, w;
    for (i = 0; i < n; i++)
        b[i].f[0] = b[i].f[1] = 0.0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            dx = pos[2 * j] - pos[2 * i];
            dy = pos[2 * j + 1] - pos[2 * i + 1];
            w = 0.05 * mass[i] * mass[j] * pow(dx * dx + dy * dy + 0.1, -1.5);
            b[i].f[0] += w * dx;
            b[i].f[1] += w * dy;
            b[j].f[0] -= w * dx;
            b[j].f[1] -= w * dy;
        }
}

void nbody(int n, double *pos, double *vel, const double *mass, double *epot)
{
    struct body b[16];
    const double dt = 0.01;
    int i, k, s;
    forces(n, pos, mass, b);
    for (s = 0; s < 10; s++) {
        for (i = 0; i < n; i++)
            for (k = 0; k < 2; k++) {
                vel[2 * i + k] += 0.5 * dt * b[i].f[k] / mass[i];
                pos[2 * i + k] += dt * vel[2 * i + k];
            }
        forces(n, pos, mass, b);
        for (i = 0; i < n; i++)
            for (k = 0; k < 2; k++)
                vel[2 * i + k] += 0.5 * dt * b[i].f[k] / mass[i];
    }
    *epot = 0.0;
    for (i = 0; i < n; i++)
        for (k = i + 1; k < n; k++)
            *epot -= mass[i] * mass[k] / sqrt(pow(pos[2 * k] - pos[2 * i], 2)
                     + pow(pos[2 * k + 1] - pos[2 * i + 1], 2) + 0.1);
}
