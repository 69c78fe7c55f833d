// radtap: -head gl_head -vars "x" -outvars "y" -size y=n
// sizes: n=4 x=n y=n
// File-scope globals carry activity between functions: gl_head sets g_scale
// from x, gl_helper reads g_scale and accumulates into the global g_acc, which
// gl_head reads back. g_coef (constant initialiser) and g_calls stay passive.
#include <math.h>

static double g_scale;
double g_acc;
static double g_coef = 0.3;
static int g_calls = 0;

static void gl_helper(int n, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = g_scale * sin(y[i]) + g_coef * g_acc;
        g_acc = g_acc + 0.1 * y[i];
    }
    g_calls = g_calls + 1;
}

void gl_head(int n, const double *x, double *y)
{
    int i;
    g_scale = x[0] * x[1];
    g_acc = 0.0;
    for (i = 0; i < n; i++)
        y[i] = x[i];
    gl_helper(n, y);
    gl_helper(n, y);
    y[0] = y[0] + g_acc;
}
