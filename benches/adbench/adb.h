/* Shared by the drivers of benches/adbench/ (C++, to call ADBench's manual derivatives): the
   thread CPU clock, a fixed-seed generator, the stack statistics of both adjoints, and the one
   line of the table. Symbols: rt_* is radtap's adjoint with its runtime, tap_* ADBench's
   repaired Tapenade adjoint with ADBench's copy of Tapenade's runtime (timed), tapp_* the same
   adjoint with Tapenade 3.16's runtime built with _ADSTACKPROFILE (counts only); adbench.sh
   links the three into one process with objcopy-renamed symbols. */
#ifndef ADB_BENCH_H
#define ADB_BENCH_H
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

static double now_ms()
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int repeats()
{
    const char *r = getenv("REPEAT");
    int n = r ? atoi(r) : 5;
    return n > 0 ? n : 1;
}

/* The least thread CPU time of REPEAT runs of f (after one warm-up run), in ms. */
template <class F> static double best_ms(F f)
{
    f();
    double best = 1e300;
    for (int r = 0; r < repeats(); r++) {
        double t0 = now_ms();
        f();
        double t = now_ms() - t0;
        if (t < best) best = t;
    }
    return best;
}

static unsigned long long rng_state = 12345;
static double urand(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * ((rng_state >> 11) * (1.0 / 9007199254740992.0));
}

extern "C" {
void rt_adStack_reset(void);
void rt_adStack_resetStatistics(void);
long long rt_adStack_totalTraffic(void);
long long rt_adStack_peakBytes(void);
long long rt_adStack_currentBytes(void);
void tapp_stats_reset(void);
long long tapp_pushed(void);
long long tapp_peak(void);
}

/* max |a-b| / max(|b|) over a gradient and its reference b. */
static double rel_err(const std::vector<double> &a, const std::vector<double> &b)
{
    double num = 0, den = 1e-300;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) {
        num = std::fmax(num, std::fabs(a[i] - b[i]));
        den = std::fmax(den, std::fabs(b[i]));
    }
    return a.size() == b.size() ? num / den : INFINITY;
}

/* One row of the table (the header is printed by adbench.sh). err_*: largest difference from
   ADBench's manual derivative, relative to its largest element. */
static void report(const char *kernel, const char *set, double obj, double rt, double tap,
                   long long rt_pushed, long long rt_peak, long long tap_pushed, long long tap_peak,
                   double err_rt, double err_tap, long long rt_left)
{
    const double tol = 1e-8;
    printf("%-5s %-22s %9.3f %9.3f %9.3f %7.2f %7.2f %6.2f %9.3f %9.3f %9.3f %9.3f %8.1e %8.1e %s\n",
           kernel, set, obj, rt, tap, rt / obj, tap / obj, rt / tap, rt_pushed / 1e6, rt_peak / 1e6,
           tap_pushed / 1e6, tap_peak / 1e6, err_rt, err_tap,
           rt_left != 0 ? "BAD(radtap stack not empty)"
           : !(err_rt <= tol) ? "BAD(radtap gradient)"
           : !(err_tap <= tol) ? "ok (Tapenade gradient WRONG)"
           : "ok");
    fflush(stdout);
}
#endif
