/* Timing driver for logsumexp.c: primal `logsumexp`, tangent `logsumexp_d` (one direction)
   and vector tangent `logsumexp_dv` (NBDirsMax = 8 directions).
   Usage: logsumexp_main [min_seconds]. Machine-readable lines start with "@ "
   (see matvec_main.c). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "DIFFSIZES.h"

#define N 10000
#define ND NBDirsMax

double logsumexp(int n, const double *x);
double logsumexp_d(int n, const double *x, const double *xd, double *f);
void logsumexp_dv(int n, const double *x, const double (*xd)[NBDirsMax], double *f,
                  double fd[NBDirsMax], int nbdirs);

static double x[N], xd[N], xdv[N][ND];
static double checksum = 0.0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double run(int v, long reps)
{
    double f, fd, fdv[ND];
    double t0 = now();
    for (long r = 0; r < reps; r++) {
        switch (v) {
        case 1:
            checksum += logsumexp(N, x);
            break;
        case 2:
            fd = logsumexp_d(N, x, xd, &f);
            checksum += fd;
            break;
        default:
            logsumexp_dv(N, x, (const double (*)[ND])xdv, &f, fdv, ND);
            checksum += fdv[r % ND];
            break;
        }
    }
    return now() - t0;
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
    static double xp[N], xm[N], xdk[N];

    /* Deterministic inputs (a unique maximum, so the max is differentiable);
       direction 1 of the vector input equals xd. */
    for (int i = 0; i < N; i++) {
        x[i] = 3.0 * sin(0.37 * i) + 0.001 * i;
        for (int k = 0; k < ND; k++)
            xdv[i][k] = 1.0 + 0.5 * cos(0.011 * (i + 1) * (k + 1));
        xd[i] = xdv[i][0];
    }

    /* ---- Sanity checks ---- */
    double f0 = logsumexp(N, x), f, fdv[ND];
    double d = logsumexp_d(N, x, xd, &f);
    printf("f             = %.15e\n", f0);
    printf("tangent dir 1 = %.15e\n", d);
    double perr = fabs(f - f0) / fabs(f0);
    double eps = 1e-6;
    for (int i = 0; i < N; i++) {
        xp[i] = x[i] + eps * xd[i];
        xm[i] = x[i] - eps * xd[i];
    }
    double fdiff = (logsumexp(N, xp) - logsumexp(N, xm)) / (2.0 * eps);
    printf("finite diff   = %.15e\n", fdiff);
    double fderr = fabs(fdiff - d) / fabs(fdiff);

    logsumexp_dv(N, x, (const double (*)[ND])xdv, &f, fdv, ND);
    printf("vector dir 1  = %.15e\n", fdv[0]);
    perr = fmax(perr, fabs(f - f0) / fabs(f0));
    double verr = 0.0;
    for (int k = 0; k < ND; k++) {
        for (int i = 0; i < N; i++)
            xdk[i] = xdv[i][k];
        double dk = logsumexp_d(N, x, xdk, &f);
        verr = fmax(verr, fabs(fdv[k] - dk) / fmax(fabs(dk), 1e-300));
    }
    printf("@ prim_err %.4e\n@ fd_err %.4e\n@ vec_err %.4e\n", perr, fderr, verr);

    /* ---- Timings ---- */
    long rp, rt, rv;
    double tp = bench(1, tmin, &rp);
    double tt = bench(2, tmin, &rt);
    double tv = bench(3, tmin, &rv);
    printf("@ primal %.5e\n@ tangent %.5e\n@ vector %.5e\n", tp, tt, tv);
    printf("@ reps %ld,%ld,%ld\n@ checksum %.15e\n", rp, rt, rv, checksum);
    return 0;
}
