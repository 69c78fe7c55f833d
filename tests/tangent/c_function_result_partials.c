// radtap: -head activations -vars "x w" -outvars "y" -size x=n -size y=4
// sizes: n=5 x=n y=4
/* User functions whose partial the adjoint writes with their stored result (issue 21,
   `results.rs`): `g[i] = sigmoid(a)` in a loop (the partial `y * y * (1 / y - 1)` from
   `g[i]`, no `exp` again), a tanh-like `2 / (1 + exp(-2x)) - 1` and a scaled `tanh` kept in
   scalars, a square root; the call stays where the stored value does not survive to the
   adjoint (`h[i]` doubled afterwards), where a step's input cannot be recovered cheaply
   (`exp(exp(x))`), and for a body that is no chain (`softplus`). */
#include <math.h>
#include <stdlib.h>

double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

double squash(double x)
{
    return 2.0 / (1.0 + exp(-2.0 * x)) - 1.0;
}

double half_tanh(double x)
{
    return 0.5 * tanh(0.5 * x) + 0.5;
}

double root(double x)
{
    return sqrt(3.0 * x + 1.0);
}

double expexp(double x)
{
    return exp(exp(-x) * 0.5);
}

double softplus(double x)
{
    return log(1.0 + exp(x));
}

void activations(int n, const double *x, const double *w, double *y)
{
    int i;
    double *g = (double *)malloc(n * sizeof(double));
    double *h = (double *)malloc(n * sizeof(double));
    double s, t, r, e, p;
    for (i = 0; i < n; i++) {
        g[i] = sigmoid(x[i] * w[i] - 0.5);
        h[i] = sigmoid(x[i] + w[i]);
    }
    for (i = 0; i < n; i++)
        h[i] = 2.0 * h[i];
    s = squash(x[0] * w[1]);
    t = half_tanh(x[1] - w[0]);
    r = root(x[2] * x[3]);
    e = expexp(w[2]);
    p = softplus(x[4] * w[3]);
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] = y[0] + g[i] * x[i] + h[i] * w[i];
    y[1] = s * t + r;
    y[2] = e * p + s;
    y[3] = t * r * 0.5;
    free(g);
    free(h);
}
