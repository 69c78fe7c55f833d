/* ADBench's manual hand derivative (src/cpp/modules/manual/hand_d.cpp, compiled in place with
   ADBench's src/cpp/shared/utils.cpp; LightMatrix, no Eigen) behind a C interface for
   hand_main.cpp, whose hand.h and ADBench's shared headers cannot share a translation unit.
   The model and instance are read by ADBench's own reader (read_hand_instance), so the
   reference does not depend on hand_main's reader; hand_main compares the inputs and the
   objective with its own.
   The manual Jacobian is column-major 3npts x ncols like hand_main's, but its columns are
   theta's for hand_objective_d and (du0, du1, theta's) for the complicated one, where du0 (du1)
   is each point's derivative along its own u0 (u1): the column hand_main gets by moving every
   point's u0 (u1) at once, since err's point i depends on us of point i only. manual_hand
   writes them in hand_main's order: theta's, then u0, u1. */
#include "hand_d.h"

static HandDataLightMatrix data;
static std::vector<double> theta, us;
static int complicated;

extern "C" int manual_hand_load(const char *model_dir, const char *instance, int compl_)
{
    complicated = compl_;
    read_hand_instance(std::string(model_dir) + "/", instance, &theta, &data,
                       complicated ? &us : nullptr);
    return (int)data.correspondences.size();
}

extern "C" const double *manual_hand_theta(int *nth)
{
    *nth = (int)theta.size();
    return theta.data();
}

extern "C" const double *manual_hand_us(void) { return complicated ? us.data() : nullptr; }

/* err: 3npts; J: 3npts x (nth + 2 if complicated), column-major, hand_main's column order;
   work: as large as J (the manual layout). */
extern "C" void manual_hand(double *err, double *J, double *work)
{
    size_t m = 3 * data.correspondences.size(), nth = theta.size();
    size_t ncols = nth + (complicated ? 2 : 0);
    std::fill(J, J + m * ncols, 0.0);
    std::fill(work, work + m * ncols, 0.0);
    if (!complicated) {
        hand_objective_d(theta.data(), data, err, J);
        return;
    }
    hand_objective_d(theta.data(), us.data(), data, err, work);
    for (size_t k = 0; k < nth; k++)
        for (size_t i = 0; i < m; i++) J[k * m + i] = work[(2 + k) * m + i];
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < m; i++) J[(nth + c) * m + i] = work[c * m + i];
}
