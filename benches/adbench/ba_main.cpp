/* Bundle adjustment (ADBench's ba.c, unmodified): objective, and the Jacobian as ADBench's
   Tapenade module computes it: per observation two adjoint calls of compute_reproj_error (one per
   residual) and one of compute_zach_weight_error, by radtap's and the repaired Tapenade's
   adjoints, checked against ADBench's manual derivatives (compute_reproj_error_d,
   compute_zach_weight_error_d) on every observation.
   Usage: ba_main FILE   (an ADBench data set: n m p, one camera, one point, one weight, one
                          feature, replicated as ADBench's reader does) */
#include "adb.h"
#include <string>
#include "ba.h"
#include "ba_d.h"

#define REPROJ_ARGS const double *cam, double *camb, const double *X, double *Xb, const double *w, \
    double *wb, const double *feat, double *err, double *errb
#define WEIGHT_ARGS const double *w, double *wb, double *err, double *errb
extern "C" {
void rt_compute_reproj_error_b(REPROJ_ARGS);
void tap_compute_reproj_error_b(REPROJ_ARGS);
void tapp_compute_reproj_error_b(REPROJ_ARGS);
void rt_compute_zach_weight_error_b(WEIGHT_ARGS);
void tap_compute_zach_weight_error_b(WEIGHT_ARGS);
void tapp_compute_zach_weight_error_b(WEIGHT_ARGS);
}

enum { NC = BA_NCAMPARAMS, NCOL = BA_NCAMPARAMS + 3 + 1 };

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: ba_main FILE\n"); return 2; }
    int n, m, p;
    FILE *f = fopen(argv[1], "r");
    if (!f || fscanf(f, "%d %d %d", &n, &m, &p) != 3) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    std::vector<double> cams(NC * n), X(3 * m), w(p), feats(2 * p);
    std::vector<int> obs(2 * p);
    double w0, f0[2];
    for (int j = 0; j < NC; j++) if (fscanf(f, "%lf", &cams[j]) != 1) return 1;
    for (int j = 0; j < 3; j++) if (fscanf(f, "%lf", &X[j]) != 1) return 1;
    if (fscanf(f, "%lf %lf %lf", &w0, &f0[0], &f0[1]) != 3) { fprintf(stderr, "short file %s\n", argv[1]); return 1; }
    fclose(f);
    for (int i = 1; i < n; i++) for (int j = 0; j < NC; j++) cams[i * NC + j] = cams[j];
    for (int i = 1; i < m; i++) for (int j = 0; j < 3; j++) X[i * 3 + j] = X[j];
    for (int i = 0; i < p; i++) {
        w[i] = w0, feats[2 * i] = f0[0], feats[2 * i + 1] = f0[1];
        obs[2 * i] = i % n, obs[2 * i + 1] = i % m;
    }
    std::string set = argv[1];
    set = set.substr(set.find_last_of('/') + 1);
    set = set.substr(0, set.find_last_of('.'));

    std::vector<double> reproj(2 * p), werr(p);
    double obj = best_ms([&] {
        ba_objective(n, m, p, cams.data(), X.data(), w.data(), obs.data(), feats.data(), reproj.data(), werr.data());
    });
    /* J: per observation 2 x NCOL column-major (cam, X, w), then the weight errors' derivatives. */
    auto jacobian = [&](void (*rb)(REPROJ_ARGS), void (*wbf)(WEIGHT_ARGS), std::vector<double> &J) {
        J.assign(p * 2 * NCOL + p, 0.0);
        double g[NCOL];
        for (int i = 0; i < p; i++) {
            const double *cam = &cams[NC * obs[2 * i]], *x = &X[3 * obs[2 * i + 1]];
            for (int r = 0; r < 2; r++) {
                double err[2], errb[2] = {0, 0};
                errb[r] = 1.0;
                for (int c = 0; c < NCOL; c++) g[c] = 0;
                rb(cam, &g[0], x, &g[NC], &w[i], &g[NC + 3], &feats[2 * i], err, errb);
                for (int c = 0; c < NCOL; c++) J[i * 2 * NCOL + 2 * c + r] = g[c];
            }
        }
        for (int i = 0; i < p; i++) {
            double err, errb = 1.0, wb = 0;
            wbf(&w[i], &wb, &err, &errb);
            J[p * 2 * NCOL + i] = wb;
        }
    };
    std::vector<double> J_rt, J_tap, J_tapp, J_man(p * 2 * NCOL + p);
    double t_rt = best_ms([&] { jacobian(rt_compute_reproj_error_b, rt_compute_zach_weight_error_b, J_rt); });
    double t_tap = best_ms([&] { jacobian(tap_compute_reproj_error_b, tap_compute_zach_weight_error_b, J_tap); });
    /* Stack statistics of one observation's two calls (the calls store nothing across). */
    std::vector<double> one;
    int p_all = p;
    p = 1;
    rt_adStack_reset();
    rt_adStack_resetStatistics();
    jacobian(rt_compute_reproj_error_b, rt_compute_zach_weight_error_b, one);
    long long rt_pushed = rt_adStack_totalTraffic(), rt_peak = rt_adStack_peakBytes(), rt_left = rt_adStack_currentBytes();
    tapp_stats_reset();
    jacobian(tapp_compute_reproj_error_b, tapp_compute_zach_weight_error_b, one);
    p = p_all;
    for (int i = 0; i < p; i++) {
        double err[2];
        compute_reproj_error_d(&cams[NC * obs[2 * i]], &X[3 * obs[2 * i + 1]], w[i], feats[2 * i], feats[2 * i + 1], err,
                               &J_man[i * 2 * NCOL]);
        double e;
        compute_zach_weight_error_d(w[i], &e, &J_man[p * 2 * NCOL + i]);
    }
    report("ba", set.c_str(), obj, t_rt, t_tap, rt_pushed, rt_peak, tapp_pushed(), tapp_peak(),
           rel_err(J_rt, J_man), rel_err(J_tap, J_man), rt_left);
    return 0;
}
