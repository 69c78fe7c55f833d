// radtap: -head "orbit(pos vel)/(pos vel mass)"
// sizes: n=4 steps=3 pos=3*n vel=3*n mass=n
/* Pointers declared `register` walking an array of bodies, as the benchmarks game's n-body
   `advance` does (issue 44 item 11): `register struct body *a, *b;` stepped with `a++`,
   `b = a + 1`, over several steps. The adjoint records the pointers by address
   (`popPointer8((void **)&a)`), which a register variable forbids: its output did not
   compile. */
#include <math.h>

struct body {
    double x[3], v[3], m;
};

void orbit(int n, double *pos, double *vel, const double *mass, double dt, int steps)
{
    struct body s[4];
    register struct body *a, *b;
    register int k;
    int i, j;
    double d[3], d2, mag;
    for (i = 0; i < n; i++) {
        for (k = 0; k < 3; k++) {
            s[i].x[k] = pos[3 * i + k] + 2.0 * i * (k + 1);
            s[i].v[k] = vel[3 * i + k];
        }
        s[i].m = 1.0 + mass[i] * mass[i];
    }
    while (steps--) {
        for (a = s, i = 0; i < n; a++, i++) {
            for (b = a + 1, j = i + 1; j < n; b++, j++) {
                for (k = 0; k < 3; k++)
                    d[k] = a->x[k] - b->x[k];
                d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
                mag = dt / (d2 * sqrt(d2));
                for (k = 0; k < 3; k++) {
                    a->v[k] -= d[k] * b->m * mag;
                    b->v[k] += d[k] * a->m * mag;
                }
            }
        }
        for (a = s, i = 0; i < n; i++, a++)
            for (k = 0; k < 3; k++)
                a->x[k] += dt * a->v[k];
    }
    for (i = 0; i < n; i++)
        for (k = 0; k < 3; k++) {
            pos[3 * i + k] = s[i].x[k];
            vel[3 * i + k] = s[i].v[k];
        }
}
