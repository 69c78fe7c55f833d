// radtap: -head cells -vars "w x" -outvars "y"
// sizes: n=3 w=4*n x=n y=1
/* A cell in the style of an LSTM layer, not checkpointed (`$AD NOCHECKPOINT`: its forward
   sweep `cell_fwd` runs with the caller's, its backward sweep `cell_bwd` later): it allocates
   a work block `g`, fills it with nonlinear gates, updates the state `h` in place from them and
   frees the block. The free waits for `cell_bwd`, which reads the gates the forward sweep
   left in the block: the block's values are not pushed (nothing else reaches the block), only
   its pointer and its adjoint's go over. Called once per layer, each layer's cell its own
   block. */
#include <math.h>
#include <stdlib.h>

void cell(int n, const double *w, double *h, const double *x)
{
    int i;
    double *g = (double *)malloc(2 * n * sizeof(double));
    for (i = 0; i < n; i++) {
        g[i] = 1.0 / (1.0 + exp(-(w[i] * x[i] + w[n + i])));
        g[n + i] = tanh(w[2 * n + i] * h[i] + w[3 * n + i]);
    }
    for (i = 0; i < n; i++)
        h[i] = g[i] * h[i] + (1.0 - g[i]) * g[n + i];
    free(g);
}

void cells(int n, const double *w, const double *x, double *y)
{
    int j, i;
    double h[3];
    for (i = 0; i < n; i++)
        h[i] = 0.5 + 0.1 * i;
    for (j = 0; j < 3; j++) {
        /* $AD NOCHECKPOINT */
        cell(n, w, h, x);
    }
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] = y[0] + h[i] * h[i];
}
