/* LSTM driver: lstm_main L C B. Times the objective and both gradients
   (d loss / d(main_params, extra_params)); the state is reset before every call. */
#include <string.h>
#include "lstm.h"
#include "bench.h"

typedef void (*grad_fn)(int, int, int, const double *, double *, const double *, double *,
                        double *, double *, const double *, double *, double *);
void rt_lstm_objective_b(int, int, int, const double *, double *, const double *, double *,
                         double *, double *, const double *, double *, double *);
void tap_lstm_objective_b(int, int, int, const double *, double *, const double *, double *,
                          double *, double *, const double *, double *, double *);
void tapp_lstm_objective_b(int, int, int, const double *, double *, const double *, double *,
                           double *, double *, const double *, double *, double *);

static LstmSizes sz;
static int nmain, nextra, nstate, nall;
static double *params, *state0, *state, *stateb, *seq;

static double grad(grad_fn f, double *g)
{
    double loss = 0, lossb = 1.0, t0;
    memset(g, 0, nall * sizeof(double));
    memcpy(state, state0, nstate * sizeof(double));
    memset(stateb, 0, nstate * sizeof(double));
    t0 = now_ms();
    f(sz.l, sz.c, sz.b, params, g, params + nmain, g + nmain, state, stateb, seq, &loss, &lossb);
    return now_ms() - t0;
}

static double objective_at(const double *v, double h)
{
    double *p = malloc(nall * sizeof(double)), loss;
    int i;
    for (i = 0; i < nall; i++) p[i] = params[i] + h * v[i];
    memcpy(state, state0, nstate * sizeof(double));
    lstm_objective(sz.l, sz.c, sz.b, p, p + nmain, state, seq, &loss);
    free(p);
    return loss;
}

int main(int argc, char **argv)
{
    int i, r, R = repeats();
    double tobj = 1e300, trt = 1e300, ttap = 1e300, loss, h = 1e-6, fd;
    double *grt, *gtap, *v;
    long long rt_pushed, rt_peak, rt_left, tap_pushed, tap_peak;
    char size[64];
    if (argc != 4) { fprintf(stderr, "usage: lstm_main L C B\n"); return 2; }
    sz.l = atoi(argv[1]); sz.c = atoi(argv[2]); sz.b = atoi(argv[3]);
    nmain = sz.l * 8 * sz.b; nextra = 3 * sz.b; nstate = 2 * sz.l * sz.b; nall = nmain + nextra;
    params = malloc(nall * sizeof(double)); state0 = malloc(nstate * sizeof(double));
    state = malloc(nstate * sizeof(double)); stateb = malloc(nstate * sizeof(double));
    seq = malloc(sz.c * sz.b * sizeof(double));
    grt = malloc(nall * sizeof(double)); gtap = malloc(nall * sizeof(double));
    v = malloc(nall * sizeof(double));
    for (i = 0; i < nall; i++) params[i] = urand(-1, 1);
    for (i = 0; i < nstate; i++) state0[i] = urand(-1, 1);
    for (i = 0; i < sz.c * sz.b; i++) seq[i] = urand(0, 1);
    for (i = 0; i < nall; i++) v[i] = urand(-1, 1);

    for (r = 0; r < R; r++) {
        double t0, t;
        memcpy(state, state0, nstate * sizeof(double));
        t0 = now_ms();
        lstm_objective(sz.l, sz.c, sz.b, params, params + nmain, state, seq, &loss);
        t = now_ms() - t0; if (t < tobj) tobj = t;
        rt_adStack_reset();
        t = grad(rt_lstm_objective_b, grt); if (t < trt) trt = t;
        t = grad(tap_lstm_objective_b, gtap); if (t < ttap) ttap = t;
    }
    rt_adStack_reset(); rt_adStack_resetStatistics();
    grad(rt_lstm_objective_b, grt);
    rt_pushed = rt_adStack_totalTraffic(); rt_peak = rt_adStack_peakBytes();
    rt_left = rt_adStack_currentBytes();
    tapp_stats_reset();
    grad(tapp_lstm_objective_b, gtap);
    tap_pushed = tapp_pushed(); tap_peak = tapp_peak();
    grad(tap_lstm_objective_b, gtap);

    fd = (objective_at(v, h) - objective_at(v, -h)) / (2 * h);
    snprintf(size, sizeof size, "l=%d c=%d b=%d", sz.l, sz.c, sz.b);
    report("lstm", size, tobj, trt, ttap, rt_pushed, rt_peak, tap_pushed, tap_peak,
           fabs(dot(nall, grt, v) - fd) / fabs(fd), fabs(dot(nall, gtap, v) - fd) / fabs(fd),
           rel_diff(nall, grt, gtap), rt_left);
    return 0;
}
