/* Small numerical kernels: Jacobi iteration, RK4 integrator, Horner, Newton's method. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#define NX 8
#define MAXIT 500
#define TOL 1e-10

typedef double real;

static const real coeffs[5] = {1.0, -3.0, 0.0, 2.0, 0.5};

static real horner(const real *c, int n, real x)
{
    real r = 0.0;
    int i;
    for (i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

static int jacobi(int n, real u[n], const real f[n], real h)
{
    real *tmp = malloc(n * sizeof(real));
    int it;
    for (it = 0; it < MAXIT; it++) {
        real diff = 0.0;
        int i;
        for (i = 0; i < n; i++) {
            real left = i > 0 ? u[i - 1] : 0.0;
            real right = i < n - 1 ? u[i + 1] : 0.0;
            tmp[i] = 0.5 * (left + right + h * h * f[i]);
        }
        for (i = 0; i < n; i++) {
            diff = fmax(diff, fabs(tmp[i] - u[i]));
            u[i] = tmp[i];
        }
        if (diff < TOL)
            break;
    }
    free(tmp);
    return it;
}

static void deriv(real t, const real y[2], real dy[2])
{
    dy[0] = y[1];
    dy[1] = -y[0] + 0.0 * t;
}

static void rk4(real t, real y[2], real h)
{
    real k1[2], k2[2], k3[2], k4[2], tmp[2];
    int i;
    deriv(t, y, k1);
    for (i = 0; i < 2; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
    deriv(t + 0.5 * h, tmp, k2);
    for (i = 0; i < 2; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
    deriv(t + 0.5 * h, tmp, k3);
    for (i = 0; i < 2; i++) tmp[i] = y[i] + h * k3[i];
    deriv(t + h, tmp, k4);
    for (i = 0; i < 2; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

static real newton_sqrt(real a)
{
    real x = a > 1.0 ? a : 1.0;
    int k;
    for (k = 0; k < 100; k++) {
        real nx = 0.5 * (x + a / x);
        if (fabs(nx - x) < TOL)
            return nx;
        x = nx;
    }
    return x;
}

int main(void)
{
    real u[NX] = {0};
    real f[NX];
    real y[2] = {1.0, 0.0};
    real t = 0.0, h = 0.01;
    int i, iters;

    for (i = 0; i < NX; i++)
        f[i] = 1.0;
    iters = jacobi(NX, u, f, 1.0 / (NX + 1));
    printf("jacobi iterations: %d\n", iters);
    for (i = 0; i < NX; i++)
        printf("u[%d] = %.6f\n", i, u[i]);

    for (i = 0; i < 314; i++, t += h)
        rk4(t, y, h);
    printf("rk4 at t=%.2f: y=%.6f y'=%.6f (cos=%.6f)\n", t, y[0], y[1], cos(t));

    printf("horner(2.0) = %.4f\n", horner(coeffs, 5, 2.0));
    printf("newton_sqrt(2) = %.10f, sqrt(2) = %.10f\n", newton_sqrt(2.0), sqrt(2.0));
    return 0;
}
