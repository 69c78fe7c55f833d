/* LSTM (ADBench's lstm.c, unmodified): objective, radtap's and the repaired Tapenade's gradient
   of loss with respect to main_params and extra_params, checked against ADBench's manual
   derivative. The objective overwrites its state: each run starts from the data set's.
   Usage: lstm_main FILE   (an ADBench data set: l c b, main_params, extra_params, state, sequence) */
#include "adb.h"
#include <string>
#include "lstm.h"
#include "lstm_d.h"

extern "C" {
void rt_lstm_objective_b(int l, int c, int b, const double *main_params, double *main_paramsb,
                         const double *extra_params, double *extra_paramsb, double *state,
                         double *stateb, const double *sequence, double *loss, double *lossb);
#define TAP_ARGS int l, int c, int b, const double *main_params, double *main_paramsb, \
    const double *extra_params, double *extra_paramsb, double *state, const double *sequence, \
    double *loss, double *lossb
void tap_lstm_objective_b(TAP_ARGS);
void tapp_lstm_objective_b(TAP_ARGS);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: lstm_main FILE\n"); return 2; }
    int l, c, b;
    FILE *f = fopen(argv[1], "r");
    if (!f || fscanf(f, "%d %d %d", &l, &c, &b) != 3) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    std::vector<double> main_params(2 * l * 4 * b), extra_params(3 * b), state0(2 * l * b), sequence(c * b);
    for (auto *v : {&main_params, &extra_params, &state0, &sequence})
        for (auto &e : *v)
            if (fscanf(f, "%lf", &e) != 1) { fprintf(stderr, "short file %s\n", argv[1]); return 1; }
    fclose(f);
    std::string set = argv[1];
    set = set.substr(set.find_last_of('/') + 1);
    set = set.substr(0, set.find_last_of('.'));
    int nm = main_params.size(), np = nm + extra_params.size();
    std::vector<double> state(state0), stateb(state0.size());
    double loss = 0;
    double obj = best_ms([&] {
        state = state0;
        lstm_objective(l, c, b, main_params.data(), extra_params.data(), state.data(), sequence.data(), &loss);
    });
    std::vector<double> g_rt, g_tap, g_tapp, J(np);
    auto rt = [&] {
        state = state0;
        g_rt.assign(np, 0.0);
        stateb.assign(state0.size(), 0.0);
        double lo = 0, lb = 1.0;
        rt_lstm_objective_b(l, c, b, main_params.data(), &g_rt[0], extra_params.data(), &g_rt[nm], state.data(),
                            stateb.data(), sequence.data(), &lo, &lb);
    };
    auto tap = [&](void (*fb)(TAP_ARGS), std::vector<double> &g) {
        state = state0;
        g.assign(np, 0.0);
        double lo = 0, lb = 1.0;
        fb(l, c, b, main_params.data(), &g[0], extra_params.data(), &g[nm], state.data(), sequence.data(), &lo, &lb);
    };
    double t_rt = best_ms(rt);
    double t_tap = best_ms([&] { tap(tap_lstm_objective_b, g_tap); });
    rt_adStack_reset();
    rt_adStack_resetStatistics();
    rt();
    long long rt_pushed = rt_adStack_totalTraffic(), rt_peak = rt_adStack_peakBytes(), rt_left = rt_adStack_currentBytes();
    tapp_stats_reset();
    tap(tapp_lstm_objective_b, g_tapp);
    lstm_objective_d(l, c, b, main_params.data(), extra_params.data(), state0, sequence.data(), &loss, J.data());
    report("lstm", set.c_str(), obj, t_rt, t_tap, rt_pushed, rt_peak, tapp_pushed(), tapp_peak(),
           rel_err(g_rt, J), rel_err(g_tap, J), rt_left);
    return 0;
}
