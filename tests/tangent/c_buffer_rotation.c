// radtap: -head "evolve(y)/(u0 k)"
// sizes: n=6 u0=n k=n y=n
// Time-stepping buffers rotated by pointer, as textbook solvers write them: two heap
// buffers swapped after each explicit step (`tmp = u; u = unew; unew = tmp;`, an odd number
// of steps), then three buffers rotated by a three-level scheme with the temporary declared
// in the loop (`double *t = prev; prev = cur; cur = next; next = t;`). The members of each
// rotation never designate the same block, so the calls are not aliased and the snapshots
// know their element count; the adjoint undoes each rotation by running it backwards.
#include <stdlib.h>
#include <math.h>

typedef struct {
    int n;
    double dt;
    double nu;
} Grid;

static void diffuse(const Grid *g, const double *k, const double *uold, double *unew)
{
    int i, n = g->n;
    unew[0] = uold[0];
    unew[n - 1] = uold[n - 1];
    for (i = 1; i < n - 1; i++) {
        double lap = uold[i - 1] - 2.0 * uold[i] + uold[i + 1];
        unew[i] = uold[i] + g->dt * (g->nu * lap - k[i] * uold[i] * uold[i]);
    }
}

static void leapfrog(int n, double dt, const double *prev, const double *cur, double *next)
{
    int i;
    for (i = 0; i < n; i++)
        next[i] = prev[i] + 2.0 * dt * sin(cur[i]);
}

void evolve(int n, const double *u0, const double *k, double *y)
{
    Grid g;
    double *u, *unew, *tmp;
    double *prev, *cur, *next;
    int t, i;
    g.n = n;
    g.dt = 0.1;
    g.nu = 0.7;
    u = (double *)malloc(n * sizeof(double));
    unew = (double *)malloc(n * sizeof(double));
    prev = (double *)malloc(n * sizeof(double));
    cur = (double *)malloc(n * sizeof(double));
    next = (double *)calloc(n, sizeof(double));
    for (i = 0; i < n; i++)
        u[i] = u0[i];
    for (t = 0; t < 5; t++) {
        diffuse(&g, k, u, unew);
        tmp = u;
        u = unew;
        unew = tmp;
    }
    for (i = 0; i < n; i++) {
        prev[i] = u[i];
        cur[i] = u[i] * u0[i];
    }
    for (t = 0; t < 4; t++) {
        leapfrog(n, 0.05, prev, cur, next);
        double *old = prev;
        prev = cur;
        cur = next;
        next = old;
    }
    for (i = 0; i < n; i++)
        y[i] = cur[i] + 0.5 * prev[i] * unew[i];
    free(u);
    free(unew);
    free(prev);
    free(cur);
    free(next);
}
