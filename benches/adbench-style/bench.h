/* Shared by the three drivers of benches/adbench-style/: thread CPU clock, a fixed-seed
   generator, the two gradients' stack statistics, and the one-line report.
   Symbols: rt_* is radtap's adjoint and runtime, tap_* Tapenade's (plain runtime, timed),
   tapp_* Tapenade's again with its runtime built with _ADSTACKPROFILE (statistics only);
   adbench.sh links the three into this one process with objcopy-renamed symbols. */
#ifndef ADBENCH_BENCH_H
#define ADBENCH_BENCH_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static unsigned long long rng_state = 12345;
/* uniform in [lo, hi) */
static double urand(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * ((rng_state >> 11) * (1.0 / 9007199254740992.0));
}

static int repeats(void)
{
    const char *r = getenv("REPEAT");
    int n = r ? atoi(r) : 5;
    return n > 0 ? n : 1;
}

void rt_adStack_reset(void);
void rt_adStack_resetStatistics(void);
long long rt_adStack_totalTraffic(void);
long long rt_adStack_peakBytes(void);
long long rt_adStack_currentBytes(void);
void tapp_stats_reset(void);
long long tapp_pushed(void);
long long tapp_peak(void);

/* max |a-b| / max(|a|,|b|,1e-300) over the two gradients */
static double rel_diff(int n, const double *a, const double *b)
{
    double num = 0, den = 1e-300;
    int i;
    for (i = 0; i < n; i++) {
        double d = fabs(a[i] - b[i]);
        if (d > num) num = d;
        if (fabs(a[i]) > den) den = fabs(a[i]);
        if (fabs(b[i]) > den) den = fabs(b[i]);
    }
    return num / den;
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    int i;
    for (i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* One row of the table (the header is printed by adbench.sh). fd_*: relative error of the
   gradient projected on a random direction against a central finite difference. */
static void report(const char *kernel, const char *size, double obj, double rt, double tap,
                   long long rt_pushed, long long rt_peak, long long tap_pushed, long long tap_peak,
                   double fd_rt, double fd_tap, double rt_vs_tap, long long rt_left)
{
    const double tol = 1e-5;
    printf("%-5s %-16s %9.3f %9.3f %9.3f %7.2f %7.2f %6.2f %10.2f %9.2f %10.2f %9.2f %8.1e %8.1e %8.1e %s\n",
           kernel, size, obj, rt, tap, rt / obj, tap / obj, rt / tap, rt_pushed / 1e6, rt_peak / 1e6,
           tap_pushed / 1e6, tap_peak / 1e6, fd_rt, fd_tap, rt_vs_tap,
           rt_left != 0 ? "BAD(radtap stack not empty)"
           : fd_rt > tol ? "BAD(radtap gradient)"
           : fd_tap > tol || rt_vs_tap > tol ? "ok (Tapenade gradient WRONG)"
           : "ok");
}
#endif
