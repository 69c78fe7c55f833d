/* Adjoint timing driver for matvec.c (benches/tangent/matvec.c): primal `matvec` and adjoint
   `matvec_b` (forward + backward sweep). Usage: matvec_main [min_seconds]
   Machine-readable lines start with "@ ": primal/adjoint seconds per call (each call timed on
   its own, best of 3 timings), peak/traffic/left (AD stack bytes of one matvec_b call; left =
   bytes still on the stack after it), dot_err (<ab, va> + <xb, vx> with yb = w, against
   <w, central finite difference of y in the direction (va, vx)>, 4th order, step 1e-3),
   reps, checksum. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "adStack.h"

#define N 1200

void matvec(int n, const double *a, const double *x, double *y);
void matvec_b(int n, const double *a, double *ab, const double *x, double *xb, double *y,
              double *yb);

static double a[N * N], ab[N * N], va[N * N], x[N], xb[N], vx[N], y[N], yb[N], w[N];
static double checksum = 0.0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Pseudo-random numbers in [-1, 1] (minstd generator, fixed seed). */
static long long seed = 20240611;
static double rnd(void)
{
    seed = (48271 * seed) % 2147483647;
    return 2.0 * (double)seed / 2147483647.0 - 1.0;
}

/* <w, y> at (a + e va, x + e vx), with the original code. */
static double wy_at(double e)
{
    static double ae[N * N], xe[N], ye[N];
    double s = 0.0;
    for (int i = 0; i < N * N; i++)
        ae[i] = a[i] + e * va[i];
    for (int i = 0; i < N; i++)
        xe[i] = x[i] + e * vx[i];
    matvec(N, ae, xe, ye);
    for (int i = 0; i < N; i++)
        s += w[i] * ye[i];
    return s;
}

static void reset_adjoints(void)
{
    memset(ab, 0, sizeof ab);
    memset(xb, 0, sizeof xb);
    memcpy(yb, w, sizeof yb);
}

/* Seconds spent inside `reps` calls of variant v (1 primal, 2 adjoint); resetting the
   adjoints between calls is not timed. */
static double run(int v, long reps)
{
    double total = 0.0, t0;
    for (long r = 0; r < reps; r++) {
        if (v == 1) {
            t0 = now();
            matvec(N, a, x, y);
            total += now() - t0;
            checksum += y[r % N];
        } else {
            reset_adjoints();
            t0 = now();
            matvec_b(N, a, ab, x, xb, y, yb);
            total += now() - t0;
            checksum += xb[r % N] + ab[r % (N * N)];
        }
    }
    return total;
}

/* Best of 3 timings of `reps` calls, reps chosen so that one timing takes >= tmin seconds. */
static double bench(int v, double tmin, long *reps_out)
{
    long reps = 1;
    double el;
    for (;;) {
        el = run(v, reps);
        if (el >= tmin)
            break;
        if (el <= 0.0) {
            reps *= 10;
        } else {
            long guess = (long)(1.2 * tmin / el * (double)reps) + 1;
            reps = guess > 2 * reps ? guess : 2 * reps;
        }
    }
    double best = el;
    for (int trial = 0; trial < 3; trial++) {
        double t = run(v, reps);
        if (t < best)
            best = t;
    }
    *reps_out = reps;
    return best / (double)reps;
}

int main(int argc, char **argv)
{
    double tmin = argc > 1 ? atof(argv[1]) : 0.2;

    /* Deterministic inputs; pseudo-random direction (va, vx) and output weights w. */
    for (int i = 0; i < N; i++) {
        x[i] = sin(0.1 * i) + 0.5;
        for (int j = 0; j < N; j++)
            a[i * N + j] = 1.0 / (1.0 + i + j) + 0.01 * cos(i - 2.0 * j);
    }
    for (int i = 0; i < N * N; i++)
        va[i] = rnd();
    for (int i = 0; i < N; i++)
        vx[i] = rnd();
    for (int i = 0; i < N; i++)
        w[i] = rnd();

    /* ---- Adjoint and AD stack of one call ---- */
    reset_adjoints();
    adStack_reset();
    adStack_resetStatistics();
    matvec_b(N, a, ab, x, xb, y, yb);
    long long peak = adStack_peakBytes(), traffic = adStack_totalTraffic(),
              left = adStack_currentBytes();
    double adj = 0.0;
    for (int i = 0; i < N * N; i++)
        adj += ab[i] * va[i];
    for (int i = 0; i < N; i++)
        adj += xb[i] * vx[i];

    /* ---- Dot-product check against central differences (4th order, step 1e-3) ---- */
    double eps = 1e-3;
    double fd = (8.0 * (wy_at(eps) - wy_at(-eps)) - (wy_at(2.0 * eps) - wy_at(-2.0 * eps))) /
                (12.0 * eps);
    printf("adjoint . v = %.15e\nfinite diff = %.15e\n", adj, fd);
    printf("@ dot_err %.4e\n", fabs(adj - fd) / fmax(fabs(fd), 1e-300));
    printf("@ peak %lld\n@ traffic %lld\n@ left %lld\n", peak, traffic, left);

    /* ---- Timings ---- */
    long rp, ra;
    double tp = bench(1, tmin, &rp);
    double ta = bench(2, tmin, &ra);
    printf("@ primal %.5e\n@ adjoint %.5e\n", tp, ta);
    printf("@ reps %ld,%ld\n@ checksum %.15e\n", rp, ra, checksum);
    return 0;
}
