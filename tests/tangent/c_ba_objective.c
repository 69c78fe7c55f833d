// radtap: -head "ba_objective(reproj_err w_err)/(cams X w)"
// sizes: n=2 m=3 cams=11*n X=3*m w=n*m feats=2*n*m reproj_err=2*n*m w_err=n*m
// ADBench-style bundle adjustment: camera parameters reached through
// &(cams[i * BA_NCAMPARAMS]) and macros from the header next to the source,
// Rodrigues rotation with fixed-size local arrays, helpers on pointers
// (&(cam[BA_C_IDX]), cam + BA_RAD_IDX), a struct by value, two outputs.
#include <math.h>
#include "c_ba_objective.h"

double sqsum(int n, const double *x)
{
    int i;
    double res = 0.0;
    for (i = 0; i < n; i++)
        res = res + (x[i]) * x[i];
    return res;
}

void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void rodrigues_rotate_point(const double *rot, const double *pt, double *rotated_pt)
{
    int i;
    double sqtheta = sqsum(3, rot);
    double theta = sqrt(sqtheta);
    double costheta = cos(theta), sintheta = sin(theta), theta_inverse = 1.0 / theta;
    double w[3], w_cross_pt[3], tmp;
    for (i = 0; i < 3; i++)
        w[i] = rot[i] * theta_inverse;
    cross(w, pt, w_cross_pt);
    tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - costheta);
    for (i = 0; i < 3; i++)
        rotated_pt[i] = pt[i] * costheta + w_cross_pt[i] * sintheta + w[i] * tmp;
}

void radial_distort(const double *rad_params, double *proj)
{
    double rsq = sqsum(2, proj);
    double L = 1.0 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
    proj[0] = (proj[0]) * L;
    proj[1] = (proj[1]) * L;
}

void project(const double *cam, const double *X, double *proj)
{
    double Xo[3], Xcam[3];
    int i;
    for (i = 0; i < 3; i++)
        Xo[i] = X[i] - (cam[BA_C_IDX + i]);
    rodrigues_rotate_point(&(cam[BA_ROT_IDX]), Xo, Xcam);
    proj[0] = Xcam[0] / (Xcam[2] + 4.0);
    proj[1] = Xcam[1] / (Xcam[2] + 4.0);
    radial_distort(cam + BA_RAD_IDX, proj);
    proj[0] = proj[0] * cam[BA_F_IDX] + cam[BA_X0_IDX + 0];
    proj[1] = proj[1] * cam[BA_F_IDX] + cam[BA_X0_IDX + 1];
}

void ba_objective(int n, int m, const double *cams, const double *X,
                  const double *w, const double *feats, BaConfig cfg,
                  double *reproj_err, double *w_err)
{
    int i, j;
    double proj[2];
    for (i = 0; i < n; i++) {
        for (j = 0; j < m; j++) {
            project(&(cams[i * BA_NCAMPARAMS]), &(X[3 * j]), proj);
            reproj_err[2 * (i * m + j)] = w[i * m + j] * (proj[0] - feats[2 * (i * m + j)]);
            reproj_err[2 * (i * m + j) + 1] = w[i * m + j] * (proj[1] - feats[2 * (i * m + j) + 1]);
            w_err[i * m + j] = cfg.weight * (1.0 - w[i * m + j] * w[i * m + j]);
        }
    }
}
