/* Timing driver for matvec.c: primal `matvec`, tangent `matvec_d` (one direction) and vector
   tangent `matvec_dv` (NBDirsMax = 8 directions). Usage: matvec_main [min_seconds]
   Machine-readable lines start with "@ ": primal/tangent/vector seconds per call (best of 3),
   fd_err (tangent vs central finite difference), vec_err (vector directions vs tangent),
   prim_err (primal result of the derivative routines vs the original). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "DIFFSIZES.h"

#define N 300
#define ND NBDirsMax

void matvec(int n, const double *a, const double *x, double *y);
void matvec_d(int n, const double *a, const double *ad, const double *x, const double *xd,
              double *y, double *yd);
void matvec_dv(int n, const double *a, const double (*ad)[NBDirsMax], const double *x,
               const double (*xd)[NBDirsMax], double *y, double (*yd)[NBDirsMax], int nbdirs);

static double a[N * N], ad[N * N], x[N], xd[N], y[N], yd[N];
static double adv[N * N][ND], xdv[N][ND], ydv[N][ND];
static double checksum = 0.0;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double run(int v, long reps)
{
    double t0 = now();
    for (long r = 0; r < reps; r++) {
        switch (v) {
        case 1:
            matvec(N, a, x, y);
            checksum += y[r % N];
            break;
        case 2:
            matvec_d(N, a, ad, x, xd, y, yd);
            checksum += yd[r % N];
            break;
        default:
            matvec_dv(N, a, (const double (*)[ND])adv, x, (const double (*)[ND])xdv, y, ydv, ND);
            checksum += ydv[r % N][r % ND];
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

static double max_rel_diff(const double *p, const double *q, int n)
{
    double num = 0.0, den = 1e-300;
    for (int i = 0; i < n; i++) {
        num = fmax(num, fabs(p[i] - q[i]));
        den = fmax(den, fabs(q[i]));
    }
    return num / den;
}

int main(int argc, char **argv)
{
    double tmin = argc > 1 ? atof(argv[1]) : 0.2;
    static double yref[N], yp[N], ym[N], fd[N], ap[N * N], am[N * N], xp[N], xm[N], tmp[N];

    /* Deterministic inputs; direction 1 of the vector inputs equals (ad, xd). */
    for (int i = 0; i < N; i++) {
        x[i] = sin(0.1 * i) + 0.5;
        for (int k = 0; k < ND; k++)
            xdv[i][k] = cos(0.05 * (i + 1) * (k + 1));
        xd[i] = xdv[i][0];
        for (int j = 0; j < N; j++) {
            a[i * N + j] = 1.0 / (1.0 + i + j) + 0.01 * cos(i - 2.0 * j);
            for (int k = 0; k < ND; k++)
                adv[i * N + j][k] = 0.001 * sin(0.3 * i + 0.7 * j + k);
            ad[i * N + j] = adv[i * N + j][0];
        }
    }

    /* ---- Sanity checks ---- */
    matvec(N, a, x, yref);
    matvec_d(N, a, ad, x, xd, y, yd);
    printf("y[0]          = %.15e\n", yref[0]);
    printf("tangent yd[0] = %.15e\n", yd[0]);
    double perr = max_rel_diff(y, yref, N);
    double eps = 1e-6;
    for (int i = 0; i < N * N; i++) {
        ap[i] = a[i] + eps * ad[i];
        am[i] = a[i] - eps * ad[i];
    }
    for (int i = 0; i < N; i++) {
        xp[i] = x[i] + eps * xd[i];
        xm[i] = x[i] - eps * xd[i];
    }
    matvec(N, ap, xp, yp);
    matvec(N, am, xm, ym);
    for (int i = 0; i < N; i++)
        fd[i] = (yp[i] - ym[i]) / (2.0 * eps);
    printf("finite diff   = %.15e\n", fd[0]);
    double fderr = max_rel_diff(yd, fd, N);

    matvec_dv(N, a, (const double (*)[ND])adv, x, (const double (*)[ND])xdv, y, ydv, ND);
    printf("vector dir 1  = %.15e\n", ydv[0][0]);
    perr = fmax(perr, max_rel_diff(y, yref, N));
    double verr = 0.0;
    for (int k = 0; k < ND; k++) {
        static double adk[N * N], xdk[N], ydk[N];
        for (int i = 0; i < N * N; i++)
            adk[i] = adv[i][k];
        for (int i = 0; i < N; i++)
            xdk[i] = xdv[i][k];
        matvec_d(N, a, adk, x, xdk, tmp, ydk);
        double vk[N];
        for (int i = 0; i < N; i++)
            vk[i] = ydv[i][k];
        verr = fmax(verr, max_rel_diff(vk, ydk, N));
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
