// radtap: -head local_records -vars "x p" -outvars "y"
// sizes: n=5 x=n y=4
/* Values the adjoint records outside every loop are kept in local variables instead of on
   the stack (issue 21, `locals.rs`): a scalar overwritten twice (`a`), an element (`q[0]`),
   a value overwritten under an IF, the snapshot of a call on a small array read again before
   the call's re-run (`distort`: a look), the snapshots of a call on two small arrays (a
   repeat mark, dropped once both are locals), an integer subscript overwritten (`m`); a
   call on a small array and a malloc'd block of n values keeps the block on the stack (a
   repeat mark around its pop only), and what a loop records stays on the stack. */
#include <math.h>
#include <stdlib.h>

void distort(const double *k, double *q)
{
    double r = q[0] * q[0] + q[1] * q[1];
    double L = 1.0 + 0.1 * k[0] * r;
    q[0] = q[0] * L;
    q[1] = q[1] * L;
}

void rotate(double c, double *q, double *t)
{
    double u = q[0];
    q[0] = c * q[0] - 0.1 * t[1] * q[1];
    q[1] = c * q[1] + 0.1 * t[0] * u;
    t[0] = t[0] * 0.5 + 0.1 * q[1];
    t[1] = t[1] + 0.1 * q[0] * u;
    t[2] = t[2] * 0.5 + 0.1 * t[0];
}

void smear(int n, double *q, double *w)
{
    int i;
    for (i = 0; i < n; i++)
        w[i] = 0.5 * w[i] * q[i % 2] + 0.1 * q[1 - i % 2];
    q[0] = q[0] + 0.1 * w[n - 1];
    q[1] = q[1] * (0.5 + 0.1 * w[0]);
}

void local_records(int n, const double *x, const double p[3], double *y)
{
    double q[2], t[3];
    double a, b;
    int i, m;
    double *w = (double *)malloc(n * sizeof(double));
    a = sin(x[0]) * p[0];
    a = a * a + x[1];
    q[0] = x[1] * p[1];
    q[1] = x[2] / p[2];
    q[0] = q[0] * a;
    b = a * q[1];
    if (x[2] > 0.25) {
        a = a * cos(b);
        b = b + a * q[0];
    }
    distort(p, q);
    t[0] = q[0] * x[3];
    t[1] = q[1] + x[4];
    t[2] = a * b;
    rotate(p[1], q, t);
    m = n / 2;
    y[1] = a * x[m] * t[2];
    m = (3 * m + 1) % n;
    y[2] = 0.1 * (b * x[m] + t[0] * t[1]);
    for (i = 0; i < n; i++)
        w[i] = x[i] * q[0];
    smear(n, q, w);
    for (i = 1; i < n; i++) {
        a = sin(a) + 0.1 * w[i] * b;
    }
    y[0] = a + q[0] * q[1];
    y[3] = w[n - 1] * t[2];
    free(w);
}
