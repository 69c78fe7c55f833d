/* Hand tracker (ADBench's hand.c, unmodified): the objective, and the Jacobian of err that
   ADBench computes in tangent mode (26 theta columns; complicated: + 2 us columns, each the
   direction of every point's u0, then u1), by radtap's tangent (rt_*) and by the repaired
   Tapenade tangent ADBench ships (hand_d.c, tap_*), in one process. No stack: the byte columns
   are zero. The reference is ADBench's manual hand derivative (modules/manual/hand_d.cpp, no
   Eigen, behind hand_manual.cpp, on the model and instance read by ADBench's own reader): err_*
   is the largest difference from its Jacobian relative to its largest element, and the check
   accepts 1e-8. The check also fails when ADBench's reader and this file's disagree (inputs, or
   the objective against the manual one's) and when the manual Jacobian is more than 1e-6 from
   central differences of the objective. A second row per data set times radtap's vector
   tangent (all columns in one call; Tapenade has a vector mode too, which ADBench does not use,
   so that row is radtap's -vector against ADBench's scalar Tapenade tangent).
   Usage: hand_main MODEL_DIR INSTANCE COMPLICATED(0|1) NAME
   The model reader is this file's own, after ADBench's file formats (bones.txt: name, parent,
   two 4x4 matrices row by row; vertices.txt: position, 5 ignored numbers (normal, texture
   coordinates), the number of weights, then (bone, weight) pairs;
   triangles.txt; the instance: npts nth, then per point its vertex and 3 coordinates, the us
   when complicated, then theta). */
#include "adb.h"
#include <algorithm>
#include <cstring>
#include <string>
#include "hand.h"

struct MatrixDiff {
    double *data;
};

#define HAND_D_ARGS(DIFF) const double *theta, const double *thetad, int bone_count, \
    const char **bone_names, const int *parents, Matrix *base_relatives DIFF(base_relativesd), \
    Matrix *inverse_base_absolutes DIFF(inverse_base_absolutesd), Matrix *base_positions \
    DIFF(base_positionsd), Matrix *weights, const Triangle *triangles, int is_mirrored, \
    int corresp_count, const int *correspondences, Matrix *points, double *err, double *errd
#define HANDC_D_ARGS(DIFF) const double *theta, const double *thetad, const double *us, \
    const double *usd, int bone_count, const char **bone_names, const int *parents, \
    Matrix *base_relatives DIFF(base_relativesd), Matrix *inverse_base_absolutes \
    DIFF(inverse_base_absolutesd), Matrix *base_positions DIFF(base_positionsd), \
    Matrix *weights, const Triangle *triangles, int is_mirrored, int corresp_count, \
    const int *correspondences, Matrix *points, double *err, double *errd
#define NONE(x)
#define TWIN(x) , MatrixDiff *x
/* radtap's vector tangent (`-d -vector -nbdirsmax 28`): every column in one call. */
#define NBDIRSMAX 28
typedef double Dirs[NBDIRSMAX];
#define HAND_DV_ARGS const double *theta, const Dirs *thetad, int bone_count, \
    const char **bone_names, const int *parents, Matrix *base_relatives, \
    Matrix *inverse_base_absolutes, Matrix *base_positions, Matrix *weights, \
    const Triangle *triangles, int is_mirrored, int corresp_count, const int *correspondences, \
    Matrix *points, double *err, Dirs *errd, int nbdirs
#define HANDC_DV_ARGS const double *theta, const Dirs *thetad, const double *us, const Dirs *usd, \
    int bone_count, const char **bone_names, const int *parents, Matrix *base_relatives, \
    Matrix *inverse_base_absolutes, Matrix *base_positions, Matrix *weights, \
    const Triangle *triangles, int is_mirrored, int corresp_count, const int *correspondences, \
    Matrix *points, double *err, Dirs *errd, int nbdirs
/* radtap's adjoint (`-b`): one row of the Jacobian per call. */
#define HAND_B_ARGS const double *theta, double *thetab, int bone_count, \
    const char **bone_names, const int *parents, Matrix *base_relatives, \
    Matrix *inverse_base_absolutes, Matrix *base_positions, Matrix *weights, \
    const Triangle *triangles, int is_mirrored, int corresp_count, const int *correspondences, \
    Matrix *points, double *err, double *errb
#define HANDC_B_ARGS const double *theta, double *thetab, const double *us, double *usb, \
    int bone_count, const char **bone_names, const int *parents, Matrix *base_relatives, \
    Matrix *inverse_base_absolutes, Matrix *base_positions, Matrix *weights, \
    const Triangle *triangles, int is_mirrored, int corresp_count, const int *correspondences, \
    Matrix *points, double *err, double *errb
extern "C" {
void rtb_hand_objective_b(HAND_B_ARGS);
void rtb_hand_objective_complicated_b(HANDC_B_ARGS);
void rtb_adStack_reset(void);
void rtb_adStack_resetStatistics(void);
long long rtb_adStack_totalTraffic(void);
long long rtb_adStack_peakBytes(void);
long long rtb_adStack_currentBytes(void);
void rt_hand_objective_d(HAND_D_ARGS(NONE));
void rt_hand_objective_complicated_d(HANDC_D_ARGS(NONE));
void tap_hand_objective_d(HAND_D_ARGS(TWIN));
void tap_hand_objective_complicated_d(HANDC_D_ARGS(TWIN));
void rtv_hand_objective_dv(HAND_DV_ARGS);
void rtv_hand_objective_complicated_dv(HANDC_DV_ARGS);
/* hand_manual.cpp: ADBench's manual derivative, its reader. */
int manual_hand_load(const char *model_dir, const char *instance, int complicated);
const double *manual_hand_theta(int *nth);
const double *manual_hand_us(void);
void manual_hand(double *err, double *J, double *work);
}

static int nb, nv, npts, nth;
static std::vector<char *> names;
static std::vector<int> parents, corr;
static std::vector<Matrix> brel, ibabs;
static Matrix bpos, weights, points;
static std::vector<Triangle> tris;
static std::vector<double> theta, us;
static std::vector<MatrixDiff> brel_d, ibabs_d;
static MatrixDiff bpos_d;
static int complicated;

static Matrix mk(int r, int c)
{
    Matrix m;
    m.nrows = r, m.ncols = c;
    m.data = (double *)calloc((size_t)r * c, sizeof(double));
    return m;
}

static FILE *open_or_die(const std::string &p)
{
    FILE *f = fopen(p.c_str(), "r");
    if (!f) {
        fprintf(stderr, "hand_main: cannot read %s\n", p.c_str());
        exit(1);
    }
    return f;
}

static void read_model(const std::string &dir)
{
    char line[8192];
    FILE *f = open_or_die(dir + "/bones.txt");
    while (fgets(line, sizeof line, f)) {
        if (strlen(line) < 3) continue;
        names.push_back(strdup(strtok(line, ":")));
        parents.push_back(atoi(strtok(nullptr, ":")));
        double t[32];
        for (double &v : t) v = atof(strtok(nullptr, ":\n"));
        Matrix r = mk(4, 4), a = mk(4, 4);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                r.data[i + j * 4] = t[i * 4 + j];
                a.data[i + j * 4] = t[16 + i * 4 + j];
            }
        brel.push_back(r), ibabs.push_back(a);
    }
    fclose(f);
    nb = (int)names.size();
    f = open_or_die(dir + "/vertices.txt");
    nv = 0;
    while (fgets(line, sizeof line, f))
        if (strlen(line) > 2) nv++;
    rewind(f);
    bpos = mk(4, nv), weights = mk(nb, nv);
    for (int v = 0; v < nv; v++) {
        if (!fgets(line, sizeof line, f)) break;
        char *tok = strtok(line, ":");
        for (int j = 0; j < 3; j++) {
            bpos.data[j + v * 4] = atof(tok);
            tok = strtok(nullptr, ":");
        }
        bpos.data[3 + v * 4] = 1.0;
        for (int j = 0; j < 5; j++) tok = strtok(nullptr, ":");
        int n = atoi(tok);
        for (int j = 0; j < n; j++) {
            int b = atoi(strtok(nullptr, ":"));
            weights.data[b + v * nb] = atof(strtok(nullptr, ":\n"));
        }
    }
    fclose(f);
    f = open_or_die(dir + "/triangles.txt");
    Triangle t;
    while (fscanf(f, "%d:%d:%d", &t.verts[0], &t.verts[1], &t.verts[2]) == 3) tris.push_back(t);
    fclose(f);
}

static void read_instance(const std::string &fn)
{
    FILE *f = open_or_die(fn);
    if (fscanf(f, "%d %d", &npts, &nth) != 2) exit(1);
    corr.resize(npts), points = mk(3, npts);
    for (int i = 0; i < npts; i++) {
        if (fscanf(f, "%d", &corr[i]) != 1) exit(1);
        for (int j = 0; j < 3; j++)
            if (fscanf(f, "%lf", &points.data[j + 3 * i]) != 1) exit(1);
    }
    us.assign(2 * npts, 0.0);
    if (complicated)
        for (double &u : us)
            if (fscanf(f, "%lf", &u) != 1) exit(1);
    theta.resize(nth);
    for (double &v : theta)
        if (fscanf(f, "%lf", &v) != 1) exit(1);
    fclose(f);
}

static void objective(const double *th, const double *u, double *err)
{
    const char **bn = (const char **)names.data();
    if (complicated)
        hand_objective_complicated(th, u, nb, bn, parents.data(), brel.data(), ibabs.data(), &bpos,
                                   &weights, tris.data(), 0, npts, corr.data(), &points, err);
    else
        hand_objective(th, nb, bn, parents.data(), brel.data(), ibabs.data(), &bpos, &weights,
                       tris.data(), 0, npts, corr.data(), &points, err);
}

/* One column of the Jacobian: the tangent along (thd, ud), by radtap or Tapenade. */
static void column(bool rt, const double *thd, const double *ud, double *err, double *errd)
{
    const char **bn = (const char **)names.data();
    const double *th = theta.data(), *u = us.data();
    if (rt && complicated)
        rt_hand_objective_complicated_d(th, thd, u, ud, nb, bn, parents.data(), brel.data(),
                                        ibabs.data(), &bpos, &weights, tris.data(), 0, npts,
                                        corr.data(), &points, err, errd);
    else if (rt)
        rt_hand_objective_d(th, thd, nb, bn, parents.data(), brel.data(), ibabs.data(), &bpos,
                            &weights, tris.data(), 0, npts, corr.data(), &points, err, errd);
    else if (complicated)
        tap_hand_objective_complicated_d(th, thd, u, ud, nb, bn, parents.data(), brel.data(),
                                         brel_d.data(), ibabs.data(), ibabs_d.data(), &bpos,
                                         &bpos_d, &weights, tris.data(), 0, npts, corr.data(),
                                         &points, err, errd);
    else
        tap_hand_objective_d(th, thd, nb, bn, parents.data(), brel.data(), brel_d.data(),
                             ibabs.data(), ibabs_d.data(), &bpos, &bpos_d, &weights, tris.data(),
                             0, npts, corr.data(), &points, err, errd);
}

/* The Jacobian, column-major 3npts x ncols, as ADBench's tangent modules compute it. */
static void jacobian(bool rt, std::vector<double> &J, int ncols)
{
    int m = 3 * npts;
    std::vector<double> err(m), thd(nth), ud(2 * npts);
    for (int k = 0; k < ncols; k++) {
        std::fill(thd.begin(), thd.end(), 0.0);
        std::fill(ud.begin(), ud.end(), 0.0);
        if (k < nth) thd[k] = 1.0;
        else
            for (int i = 0; i < npts; i++) ud[2 * i + (k - nth)] = 1.0;
        column(rt, thd.data(), ud.data(), err.data(), J.data() + (size_t)k * m);
    }
}

/* The same Jacobian by radtap's vector tangent, all columns at once. */
static void jacobian_vector(std::vector<double> &J, int ncols)
{
    int m = 3 * npts;
    std::vector<double> err(m);
    std::vector<Dirs> thd(nth), ud(2 * npts), errd(m);
    for (auto &d : thd) std::fill(d, d + NBDIRSMAX, 0.0);
    for (auto &d : ud) std::fill(d, d + NBDIRSMAX, 0.0);
    for (int k = 0; k < ncols; k++) {
        if (k < nth) thd[k][k] = 1.0;
        else
            for (int i = 0; i < npts; i++) ud[2 * i + (k - nth)][k] = 1.0;
    }
    const char **bn = (const char **)names.data();
    if (complicated)
        rtv_hand_objective_complicated_dv(theta.data(), thd.data(), us.data(), ud.data(), nb, bn,
                                          parents.data(), brel.data(), ibabs.data(), &bpos,
                                          &weights, tris.data(), 0, npts, corr.data(), &points,
                                          err.data(), errd.data(), ncols);
    else
        rtv_hand_objective_dv(theta.data(), thd.data(), nb, bn, parents.data(), brel.data(),
                              ibabs.data(), &bpos, &weights, tris.data(), 0, npts, corr.data(),
                              &points, err.data(), errd.data(), ncols);
    for (int k = 0; k < ncols; k++)
        for (int i = 0; i < m; i++) J[(size_t)k * m + i] = errd[i][k];
}

/* The same Jacobian by radtap's adjoint, one row per output (3 npts calls): row r is the
   gradient of err[r]; the us columns are the sums of each point's u0 (u1) adjoints. */
static void jacobian_adjoint(std::vector<double> &J, int ncols)
{
    int m = 3 * npts;
    std::vector<double> err(m), errb(m), thb(nth), ub(2 * npts);
    const char **bn = (const char **)names.data();
    for (int r = 0; r < m; r++) {
        std::fill(errb.begin(), errb.end(), 0.0);
        std::fill(thb.begin(), thb.end(), 0.0);
        std::fill(ub.begin(), ub.end(), 0.0);
        errb[r] = 1.0;
        if (complicated)
            rtb_hand_objective_complicated_b(theta.data(), thb.data(), us.data(), ub.data(), nb,
                                             bn, parents.data(), brel.data(), ibabs.data(), &bpos,
                                             &weights, tris.data(), 0, npts, corr.data(), &points,
                                             err.data(), errb.data());
        else
            rtb_hand_objective_b(theta.data(), thb.data(), nb, bn, parents.data(), brel.data(),
                                 ibabs.data(), &bpos, &weights, tris.data(), 0, npts, corr.data(),
                                 &points, err.data(), errb.data());
        for (int k = 0; k < nth; k++) J[(size_t)k * m + r] = thb[k];
        for (int c = 0; c < ncols - nth; c++) {
            double s = 0.0;
            for (int i = 0; i < npts; i++) s += ub[2 * i + c];
            J[(size_t)(nth + c) * m + r] = s;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: hand_main MODEL_DIR INSTANCE COMPLICATED(0|1) NAME\n");
        return 2;
    }
    complicated = atoi(argv[3]);
    read_model(argv[1]);
    read_instance(argv[2]);
    // Tapenade's tangent takes derivative twins of the (passive) model matrices.
    for (int i = 0; i < nb; i++) {
        brel_d.push_back({(double *)calloc(16, sizeof(double))});
        ibabs_d.push_back({(double *)calloc(16, sizeof(double))});
    }
    bpos_d.data = (double *)calloc(4 * (size_t)nv, sizeof(double));
    int m = 3 * npts, ncols = nth + (complicated ? 2 : 0);
    std::vector<double> Jrt((size_t)m * ncols), Jtap((size_t)m * ncols), Jfd((size_t)m * ncols);
    std::vector<double> err(m), ep(m), em(m);
    // The reference: ADBench's manual Jacobian, on the inputs ADBench's reader reads; they must
    // be this file's, and the manual objective must be hand.c's.
    std::vector<double> Jman((size_t)m * ncols), work((size_t)m * ncols), err_man(m);
    bool same_inputs = manual_hand_load(argv[1], argv[2], complicated) == npts;
    int mnth = 0;
    const double *mth = manual_hand_theta(&mnth), *mus = manual_hand_us();
    same_inputs = same_inputs && mnth == nth && std::equal(theta.begin(), theta.end(), mth) &&
                  (!complicated || std::equal(us.begin(), us.end(), mus));
    if (same_inputs) manual_hand(err_man.data(), Jman.data(), work.data());
    objective(theta.data(), us.data(), err.data());
    double err_obj = rel_err(err, err_man);
    same_inputs = same_inputs && err_obj <= 1e-12;
    if (!same_inputs)
        fprintf(stderr, "hand: ADBench's reader and hand_main's disagree (objective %.1e apart)\n",
                err_obj);
    std::vector<double> th(nth), u(2 * npts);
    const double h = 1e-6;
    for (int k = 0; k < ncols; k++) {
        for (int s = -1; s <= 1; s += 2) {
            th = theta, u = us;
            if (k < nth) th[k] += s * h;
            else
                for (int i = 0; i < npts; i++) u[2 * i + (k - nth)] += s * h;
            objective(th.data(), u.data(), s < 0 ? em.data() : ep.data());
        }
        for (int i = 0; i < m; i++) Jfd[(size_t)k * m + i] = (ep[i] - em[i]) / (2 * h);
    }
    double obj = best_ms([&] { objective(theta.data(), us.data(), err.data()); });
    double rt = best_ms([&] { jacobian(true, Jrt, ncols); });
    double tap = best_ms([&] { jacobian(false, Jtap, ncols); });
    // err_*: against the manual Jacobian (1e-8); the manual one against central differences
    // (1e-6, their own error).
    const double tol = 1e-8, fd_tol = 1e-6;
    double err_rt = rel_err(Jrt, Jman), err_tap = rel_err(Jtap, Jman), fd = rel_err(Jman, Jfd);
    bool refok = same_inputs && fd <= fd_tol;
    char okmsg[96];
    snprintf(okmsg, sizeof okmsg, "ok (tangent; err vs manual; manual vs central diff. %.0e)", fd);
    const char *bad_ref = !same_inputs ? "BAD(ADBench's reader and hand_main's disagree)"
                                       : "BAD(manual Jacobian vs central differences)";
    std::vector<double> Jv((size_t)m * ncols);
    double rtv = best_ms([&] { jacobian_vector(Jv, ncols); });
    double err_v = rel_err(Jv, Jman);
    printf("%-5s %-22s %9.3f %9.3f %9.3f %7.2f %7.2f %6.2f %9.3f %9.3f %9.3f %9.3f %8.1e %8.1e %s\n",
           "hand", argv[4], obj, rt, tap, rt / obj, tap / obj, rt / tap, 0.0, 0.0, 0.0, 0.0, err_rt,
           err_tap,
           !refok ? bad_ref
           : !(err_rt <= tol) ? "BAD(radtap Jacobian)"
           : !(err_tap <= tol) ? "ok (Tapenade Jacobian WRONG)"
           : okmsg);
    std::string vset = std::string(argv[4]) + "_vector";
    printf("%-5s %-22s %9.3f %9.3f %9.3f %7.2f %7.2f %6.2f %9.3f %9.3f %9.3f %9.3f %8.1e %8.1e %s\n",
           "hand", vset.c_str(), obj, rtv, tap, rtv / obj, tap / obj, rtv / tap, 0.0, 0.0, 0.0, 0.0,
           err_v, err_tap,
           !refok ? bad_ref
           : !(err_v <= tol) ? "BAD(radtap vector Jacobian)"
           : "ok (radtap -vector, all columns in one call)");
    // The adjoint: the whole Jacobian by rows (3 npts sweeps) against Tapenade's tangent by
    // columns (ADBench's hand module for Tapenade is tangent only), and one adjoint sweep
    // against one tangent sweep; its stack traffic and peak for one row.
    std::vector<double> Jb((size_t)m * ncols);
    double rtb = best_ms([&] { jacobian_adjoint(Jb, ncols); });
    double err_b = rel_err(Jb, Jman);
    rtb_adStack_reset();
    rtb_adStack_resetStatistics();
    {
        std::vector<double> e1(m), eb(m, 0.0), thb(nth, 0.0), ub(2 * npts, 0.0);
        eb[0] = 1.0;
        const char **bn = (const char **)names.data();
        if (complicated)
            rtb_hand_objective_complicated_b(theta.data(), thb.data(), us.data(), ub.data(), nb,
                                             bn, parents.data(), brel.data(), ibabs.data(), &bpos,
                                             &weights, tris.data(), 0, npts, corr.data(), &points,
                                             e1.data(), eb.data());
        else
            rtb_hand_objective_b(theta.data(), thb.data(), nb, bn, parents.data(), brel.data(),
                                 ibabs.data(), &bpos, &weights, tris.data(), 0, npts, corr.data(),
                                 &points, e1.data(), eb.data());
    }
    double mb = rtb_adStack_totalTraffic() / 1e6, peak = rtb_adStack_peakBytes() / 1e6;
    if (rtb_adStack_currentBytes() != 0) printf("hand: radtap's stack not empty after an adjoint\n");
    std::string bset = std::string(argv[4]) + "_adjoint";
    printf("%-5s %-22s %9.3f %9.3f %9.3f %7.2f %7.2f %6.2f %9.3f %9.3f %9.3f %9.3f %8.1e %8.1e %s\n",
           "hand", bset.c_str(), obj, rtb, tap, rtb / obj, tap / obj, rtb / tap, mb, peak, 0.0,
           0.0, err_b, err_tap,
           !refok ? bad_ref
           : !(err_b <= tol) ? "BAD(radtap adjoint Jacobian)"
           : "ok (adjoint, 3npts rows vs Tapenade tangent's columns)");
    std::string sset = std::string(argv[4]) + "_sweep";
    double per_b = rtb / m, per_t = tap / ncols;
    printf("%-5s %-22s %9.3f %9.3f %9.3f %7.2f %7.2f %6.2f %9.3f %9.3f %9.3f %9.3f %8.1e %8.1e %s\n",
           "hand", sset.c_str(), obj, per_b, per_t, per_b / obj, per_t / obj, per_b / per_t, mb,
           peak, 0.0, 0.0, err_b, err_tap, "ok (one adjoint row vs one Tapenade tangent column)");
    return 0;
}
