/* GMM (ADBench's gmm.c, unmodified): objective, radtap's and the repaired Tapenade's gradient
   of err with respect to alphas, means and icf, checked against ADBench's manual derivative.
   Usage: gmm_main FILE         an ADBench data set (d k n, alphas, means, icf, x, gamma m)
          gmm_main gen D K N    a generated instance of that size */
#include "adb.h"
#include <cstring>
#include <string>
#include "gmm.h"
#include "gmm_d.h"

#define GRAD_ARGS int d, int k, int n, const double *alphas, double *alphasb, const double *means, \
    double *meansb, const double *icf, double *icfb, const double *x, Wishart wishart, double *err, \
    double *errb
extern "C" {
void rt_gmm_objective_b(GRAD_ARGS);
void tap_gmm_objective_b(GRAD_ARGS);
void tapp_gmm_objective_b(GRAD_ARGS);
}

int main(int argc, char **argv)
{
    int d, k, n;
    std::vector<double> alphas, means, icf, x;
    Wishart wishart;
    std::string set;
    if (argc == 5 && !strcmp(argv[1], "gen")) {
        d = atoi(argv[2]), k = atoi(argv[3]), n = atoi(argv[4]);
        int icf_sz = d * (d + 1) / 2;
        alphas.resize(k), means.resize(d * k), icf.resize(icf_sz * k), x.resize(d * n);
        for (auto &v : alphas) v = urand(-1, 1);
        for (auto &v : means) v = urand(-1, 1);
        for (auto &v : icf) v = urand(-0.5, 0.5);
        for (auto &v : x) v = urand(-1, 1);
        wishart.gamma = 1.0, wishart.m = 0;
        set = "gen_d" + std::to_string(d) + "_K" + std::to_string(k);
    } else if (argc == 2) {
        FILE *f = fopen(argv[1], "r");
        if (!f || fscanf(f, "%d %d %d", &d, &k, &n) != 3) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
        int icf_sz = d * (d + 1) / 2;
        alphas.resize(k), means.resize(d * k), icf.resize(icf_sz * k), x.resize(d * n);
        for (auto *v : {&alphas, &means, &icf, &x})
            for (auto &e : *v)
                if (fscanf(f, "%lf", &e) != 1) { fprintf(stderr, "short file %s\n", argv[1]); return 1; }
        if (fscanf(f, "%lf %d", &wishart.gamma, &wishart.m) != 2) { fprintf(stderr, "no wishart in %s\n", argv[1]); return 1; }
        fclose(f);
        std::string p = argv[1];
        set = p.substr(p.find_last_of('/') + 1);
        set = set.substr(0, set.find_last_of('.'));
    } else {
        fprintf(stderr, "usage: gmm_main FILE | gmm_main gen D K N\n");
        return 2;
    }
    int icf_sz = d * (d + 1) / 2;
    int np = k + d * k + icf_sz * k;
    double err = 0;
    double obj = best_ms([&] { gmm_objective(d, k, n, alphas.data(), means.data(), icf.data(), x.data(), wishart, &err); });

    /* One gradient: the adjoints of all three parameter arrays, seeded errb = 1. */
    auto grad = [&](void (*f)(GRAD_ARGS), std::vector<double> &g) {
        g.assign(np, 0.0);
        double e = 0, eb = 1.0;
        f(d, k, n, alphas.data(), &g[0], means.data(), &g[k], icf.data(), &g[k + d * k], x.data(), wishart, &e, &eb);
    };
    std::vector<double> g_rt, g_tap, g_tapp, J(np);
    double t_rt = best_ms([&] { grad(rt_gmm_objective_b, g_rt); });
    double t_tap = best_ms([&] { grad(tap_gmm_objective_b, g_tap); });
    rt_adStack_reset();
    rt_adStack_resetStatistics();
    grad(rt_gmm_objective_b, g_rt);
    long long rt_pushed = rt_adStack_totalTraffic(), rt_peak = rt_adStack_peakBytes(), rt_left = rt_adStack_currentBytes();
    tapp_stats_reset();
    grad(tapp_gmm_objective_b, g_tapp);
    gmm_objective_d(d, k, n, alphas.data(), means.data(), icf.data(), x.data(), wishart, &err, J.data());
    report("gmm", set.c_str(), obj, t_rt, t_tap, rt_pushed, rt_peak, tapp_pushed(), tapp_peak(),
           rel_err(g_rt, J), rel_err(g_tap, J), rt_left);
    return 0;
}
