// radtap: -head heat2d -vars "u k" -outvars "e u"
// sizes: nx=5 ny=4 steps=3 e=1
// A C99 stencil code written with 2-D arrays, as such codes are: VLA parameters `double
// u[nx][ny]` relaxed in a time loop by a callee that overwrites them, a fixed-size local 2-D
// work array, and a 2-D local copied back. The adjoint refused to record the 2-D arrays
// ("recording the multi-dimensional C array `u`"); they are recorded flat through their first
// element (`&u[0][0]`), being contiguous.
#include <math.h>

#define NW 8

static void relax(int nx, int ny, double u[nx][ny], double k)
{
    double w[NW][NW];
    int i, j;
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++)
            w[i][j] = u[i][j];
    for (i = 1; i < nx - 1; i++)
        for (j = 1; j < ny - 1; j++)
            u[i][j] = w[i][j] + k * (w[i - 1][j] + w[i + 1][j] + w[i][j - 1] + w[i][j + 1]
                                     - 4.0 * w[i][j]) - 0.05 * w[i][j] * w[i][j];
}

void heat2d(int nx, int ny, int steps, double u[nx][ny], double k, double *e)
{
    double v[NW][NW];
    int s, i, j;
    for (s = 0; s < steps; s++)
        relax(nx, ny, u, 0.1 * k);
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++)
            v[i][j] = sin(u[i][j]) * u[i][j];
    *e = 0.0;
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++) {
            *e += v[i][j] * v[i][j];
            u[i][j] = v[i][j] * 0.5;
        }
}
