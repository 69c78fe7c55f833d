/* GMM driver: gmm_main D K N. Times the objective and both gradients (d err / d(alphas, means,
   icf)), prints their stack statistics and checks them against each other and a central
   finite difference along a random direction. */
#include <string.h>
#include "gmm.h"
#include "bench.h"

typedef void (*grad_fn)(int, int, int, const double *, double *, const double *, double *,
                        const double *, double *, const double *, Wishart, double *, double *);
void rt_gmm_objective_b(int, int, int, const double *, double *, const double *, double *,
                        const double *, double *, const double *, Wishart, double *, double *);
void tap_gmm_objective_b(int, int, int, const double *, double *, const double *, double *,
                         const double *, double *, const double *, Wishart, double *, double *);
void tapp_gmm_objective_b(int, int, int, const double *, double *, const double *, double *,
                          const double *, double *, const double *, Wishart, double *, double *);

static int d, k, n, na, nm, ni, nall;
static double *alphas, *means, *icf, *x;
static Wishart wishart;

/* one gradient call into g = [alphas | means | icf]; returns its thread CPU time in ms */
static double grad(grad_fn f, double *g)
{
    double err = 0, errb = 1.0, t0;
    memset(g, 0, nall * sizeof(double));
    t0 = now_ms();
    f(d, k, n, alphas, g, means, g + na, icf, g + na + nm, x, wishart, &err, &errb);
    return now_ms() - t0;
}

static double objective_at(const double *v, double h)
{
    double *a = malloc(nall * sizeof(double)), e;
    int i;
    memcpy(a, alphas, na * sizeof(double));
    memcpy(a + na, means, nm * sizeof(double));
    memcpy(a + na + nm, icf, ni * sizeof(double));
    for (i = 0; i < nall; i++) a[i] += h * v[i];
    gmm_objective(d, k, n, a, a + na, a + na + nm, x, wishart, &e);
    free(a);
    return e;
}

int main(int argc, char **argv)
{
    int i, r, R = repeats();
    double tobj = 1e300, trt = 1e300, ttap = 1e300, e, h = 1e-6, fd;
    double *grt, *gtap, *v;
    long long rt_pushed, rt_peak, rt_left, tap_pushed, tap_peak;
    char size[64];
    if (argc != 4) { fprintf(stderr, "usage: gmm_main D K N\n"); return 2; }
    d = atoi(argv[1]); k = atoi(argv[2]); n = atoi(argv[3]);
    na = k; nm = k * d; ni = k * d * (d + 1) / 2; nall = na + nm + ni;
    alphas = malloc(na * sizeof(double)); means = malloc(nm * sizeof(double));
    icf = malloc(ni * sizeof(double)); x = malloc(n * d * sizeof(double));
    grt = malloc(nall * sizeof(double)); gtap = malloc(nall * sizeof(double));
    v = malloc(nall * sizeof(double));
    for (i = 0; i < na; i++) alphas[i] = urand(-1, 1);
    for (i = 0; i < nm; i++) means[i] = urand(0, 1);
    for (i = 0; i < ni; i++) icf[i] = urand(-0.3, 0.3);
    for (i = 0; i < n * d; i++) x[i] = urand(0, 1);
    for (i = 0; i < nall; i++) v[i] = urand(-1, 1);
    wishart.gamma = 1.0; wishart.m = 0;

    for (r = 0; r < R; r++) {
        double t0 = now_ms(), t;
        gmm_objective(d, k, n, alphas, means, icf, x, wishart, &e);
        t = now_ms() - t0; if (t < tobj) tobj = t;
        rt_adStack_reset();
        t = grad(rt_gmm_objective_b, grt); if (t < trt) trt = t;
        t = grad(tap_gmm_objective_b, gtap); if (t < ttap) ttap = t;
    }
    rt_adStack_reset(); rt_adStack_resetStatistics();
    grad(rt_gmm_objective_b, grt);
    rt_pushed = rt_adStack_totalTraffic(); rt_peak = rt_adStack_peakBytes();
    rt_left = rt_adStack_currentBytes();
    tapp_stats_reset();
    grad(tapp_gmm_objective_b, gtap);
    tap_pushed = tapp_pushed(); tap_peak = tapp_peak();
    grad(tap_gmm_objective_b, gtap);

    fd = (objective_at(v, h) - objective_at(v, -h)) / (2 * h);
    snprintf(size, sizeof size, "d=%d K=%d n=%d", d, k, n);
    report("gmm", size, tobj, trt, ttap, rt_pushed, rt_peak, tap_pushed, tap_peak,
           fabs(dot(nall, grt, v) - fd) / fabs(fd), fabs(dot(nall, gtap, v) - fd) / fabs(fd),
           rel_diff(nall, grt, gtap), rt_left);
    return 0;
}
