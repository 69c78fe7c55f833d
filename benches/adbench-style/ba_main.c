/* Bundle-adjustment driver: ba_main NCAMS NPOINTS NOBS. The objective is every observation's
   reprojection error; the gradient is the Jacobian of those residuals, built as ADBench's
   reverse-mode tools build it: two adjoint calls of compute_reproj_error_b per observation
   (one per residual), each giving a row over the 15 inputs (camera[11], point[3], weight). */
#include <string.h>
#include "ba.h"
#include "bench.h"

#define NIN (BA_NCAMPARAMS + 3 + 1)
typedef void (*grad_fn)(const double *, double *, const double *, double *, const double *,
                        double *, const double *, double *, double *);
void rt_compute_reproj_error_b(const double *, double *, const double *, double *, const double *,
                               double *, const double *, double *, double *);
void tap_compute_reproj_error_b(const double *, double *, const double *, double *,
                                const double *, double *, const double *, double *, double *);
void tapp_compute_reproj_error_b(const double *, double *, const double *, double *,
                                 const double *, double *, const double *, double *, double *);

static BaSizes sz;
static double *cams, *X, *w, *feats, *err;
static int *obs;

/* the whole Jacobian into J[p][2][NIN]; returns its thread CPU time in ms */
static double jacobian(grad_fn f, double *J)
{
    double t0 = now_ms();
    int i, c;
    for (i = 0; i < sz.p; i++)
        for (c = 0; c < 2; c++) {
            double *row = J + (2 * i + c) * NIN, e[2], eb[2] = {0, 0};
            eb[c] = 1.0;
            memset(row, 0, NIN * sizeof(double));
            f(&cams[obs[2 * i] * BA_NCAMPARAMS], row, &X[obs[2 * i + 1] * 3],
              row + BA_NCAMPARAMS, &w[i], row + BA_NCAMPARAMS + 3, &feats[2 * i], e, eb);
        }
    return now_ms() - t0;
}

/* central finite difference of residual c of observation i along v[NIN] */
static double fd_row(int i, int c, const double *v, double h)
{
    double cam[BA_NCAMPARAMS], pt[3], ww, ep[2], em[2];
    int j, s;
    for (s = 0; s < 2; s++) {
        double hh = s == 0 ? h : -h;
        for (j = 0; j < BA_NCAMPARAMS; j++) cam[j] = cams[obs[2 * i] * BA_NCAMPARAMS + j] + hh * v[j];
        for (j = 0; j < 3; j++) pt[j] = X[obs[2 * i + 1] * 3 + j] + hh * v[BA_NCAMPARAMS + j];
        ww = w[i] + hh * v[NIN - 1];
        compute_reproj_error(cam, pt, &ww, &feats[2 * i], s == 0 ? ep : em);
    }
    return (ep[c] - em[c]) / (2 * h);
}

int main(int argc, char **argv)
{
    int i, r, R = repeats(), nrows;
    double tobj = 1e300, trt = 1e300, ttap = 1e300, fd_rt = 0, fd_tap = 0, v[NIN];
    double *Jrt, *Jtap;
    long long rt_pushed, rt_peak, rt_left, tap_pushed, tap_peak;
    char size[64];
    if (argc != 4) { fprintf(stderr, "usage: ba_main NCAMS NPOINTS NOBS\n"); return 2; }
    sz.n = atoi(argv[1]); sz.m = atoi(argv[2]); sz.p = atoi(argv[3]);
    nrows = 2 * sz.p;
    cams = malloc(sz.n * BA_NCAMPARAMS * sizeof(double)); X = malloc(sz.m * 3 * sizeof(double));
    w = malloc(sz.p * sizeof(double)); feats = malloc(sz.p * 2 * sizeof(double));
    err = malloc(sz.p * 2 * sizeof(double)); obs = malloc(sz.p * 2 * sizeof(int));
    Jrt = malloc(nrows * NIN * sizeof(double)); Jtap = malloc(nrows * NIN * sizeof(double));
    for (i = 0; i < sz.n; i++) {
        double *c = &cams[i * BA_NCAMPARAMS];
        int j;
        for (j = 0; j < 3; j++) c[j] = urand(-0.3, 0.3);
        for (j = 3; j < 6; j++) c[j] = urand(-1, 1);
        c[6] = urand(500, 1500); c[7] = urand(-5, 5); c[8] = urand(-5, 5);
        c[9] = urand(-1e-3, 1e-3); c[10] = urand(-1e-6, 1e-6);
    }
    for (i = 0; i < sz.m; i++) { X[3 * i] = urand(-1, 1); X[3 * i + 1] = urand(-1, 1); X[3 * i + 2] = urand(5, 10); }
    for (i = 0; i < sz.p; i++) {
        w[i] = urand(0.5, 1.5); feats[2 * i] = urand(-50, 50); feats[2 * i + 1] = urand(-50, 50);
        obs[2 * i] = i % sz.n; obs[2 * i + 1] = i % sz.m;
    }
    for (i = 0; i < NIN; i++) v[i] = urand(-1, 1);

    for (r = 0; r < R; r++) {
        double t0 = now_ms(), t;
        for (i = 0; i < sz.p; i++)
            compute_reproj_error(&cams[obs[2 * i] * BA_NCAMPARAMS], &X[obs[2 * i + 1] * 3], &w[i],
                                 &feats[2 * i], &err[2 * i]);
        t = now_ms() - t0; if (t < tobj) tobj = t;
        rt_adStack_reset();
        t = jacobian(rt_compute_reproj_error_b, Jrt); if (t < trt) trt = t;
        t = jacobian(tap_compute_reproj_error_b, Jtap); if (t < ttap) ttap = t;
    }
    rt_adStack_reset(); rt_adStack_resetStatistics();
    jacobian(rt_compute_reproj_error_b, Jrt);
    rt_pushed = rt_adStack_totalTraffic(); rt_peak = rt_adStack_peakBytes();
    rt_left = rt_adStack_currentBytes();
    tapp_stats_reset();
    jacobian(tapp_compute_reproj_error_b, Jtap);
    tap_pushed = tapp_pushed(); tap_peak = tapp_peak();
    jacobian(tap_compute_reproj_error_b, Jtap);

    for (i = 0; i < sz.p && i < 50; i++) {
        int c;
        for (c = 0; c < 2; c++) {
            double fd = fd_row(i, c, v, 1e-7), s = fabs(fd) > 1 ? fabs(fd) : 1;
            double a = fabs(dot(NIN, Jrt + (2 * i + c) * NIN, v) - fd) / s;
            double b = fabs(dot(NIN, Jtap + (2 * i + c) * NIN, v) - fd) / s;
            if (a > fd_rt) fd_rt = a;
            if (b > fd_tap) fd_tap = b;
        }
    }
    snprintf(size, sizeof size, "n=%d m=%d p=%d", sz.n, sz.m, sz.p);
    report("ba", size, tobj, trt, ttap, rt_pushed, rt_peak, tap_pushed, tap_peak, fd_rt, fd_tap,
           rel_diff(nrows * NIN, Jrt, Jtap), rt_left);
    return 0;
}
