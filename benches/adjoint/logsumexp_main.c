/* Adjoint timing driver for logsumexp.c (benches/tangent/logsumexp.c): primal `logsumexp` and
   adjoint `logsumexp_b` (forward + backward sweep; the adjoint of the function result is its
   last argument, by value). Usage: logsumexp_main [min_seconds]
   Machine-readable lines start with "@ ": primal/adjoint seconds per call (each call timed on
   its own, best of 3 timings), peak/traffic/left (AD stack bytes of one logsumexp_b call; left
   = bytes still on the stack after it), dot_err (<xb, v> with result adjoint 1 against the
   central finite difference of f in the direction v, 4th order, step 1e-3), reps,
   checksum. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "adStack.h"

#define N 100000

double logsumexp(int n, const double *x);
void logsumexp_b(int n, const double *x, double *xb, double logsumexpb);

static double x[N], xb[N], v[N];
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

/* f(x + e v), with the original code. */
static double f_at(double e)
{
    static double xe[N];
    for (int i = 0; i < N; i++)
        xe[i] = x[i] + e * v[i];
    return logsumexp(N, xe);
}

/* Seconds spent inside `reps` calls of variant k (1 primal, 2 adjoint); zeroing the adjoint
   between calls is not timed. */
static double run(int k, long reps)
{
    double total = 0.0, t0;
    for (long r = 0; r < reps; r++) {
        if (k == 1) {
            t0 = now();
            double f = logsumexp(N, x);
            total += now() - t0;
            checksum += f;
        } else {
            memset(xb, 0, sizeof xb);
            t0 = now();
            logsumexp_b(N, x, xb, 1.0);
            total += now() - t0;
            checksum += xb[r % N];
        }
    }
    return total;
}

/* Best of 3 timings of `reps` calls, reps chosen so that one timing takes >= tmin seconds. */
static double bench(int k, double tmin, long *reps_out)
{
    long reps = 1;
    double el;
    for (;;) {
        el = run(k, reps);
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
        double t = run(k, reps);
        if (t < best)
            best = t;
    }
    *reps_out = reps;
    return best / (double)reps;
}

int main(int argc, char **argv)
{
    double tmin = argc > 1 ? atof(argv[1]) : 0.2;

    /* Deterministic inputs; pseudo-random direction. */
    for (int i = 0; i < N; i++) {
        x[i] = 3.0 * sin(0.37 * i) + 0.5 * cos(0.011 * i);
        v[i] = rnd();
    }

    /* ---- Adjoint and AD stack of one call ---- */
    memset(xb, 0, sizeof xb);
    adStack_reset();
    adStack_resetStatistics();
    logsumexp_b(N, x, xb, 1.0);
    long long peak = adStack_peakBytes(), traffic = adStack_totalTraffic(),
              left = adStack_currentBytes();
    double adj = 0.0;
    for (int i = 0; i < N; i++)
        adj += xb[i] * v[i];

    /* ---- Dot-product check against central differences (4th order, step 1e-3) ---- */
    double eps = 1e-3;
    double fd = (8.0 * (f_at(eps) - f_at(-eps)) - (f_at(2.0 * eps) - f_at(-2.0 * eps))) /
                (12.0 * eps);
    printf("f           = %.15e\n", f_at(0.0));
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
