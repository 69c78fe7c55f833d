/* Reprojection error of one observation, written after the published ADBench C objective
   (rodrigues_rotate_point, radial_distort, project, computeReprojError). The Jacobian of the
   whole objective is built by two adjoint calls per observation (one per residual). */
#include <math.h>
#include <stdlib.h>
#include "ba.h"

double sqsum(int n, const double *x)
{
    int i;
    double res = 0;
    for (i = 0; i < n; i++)
        res = res + x[i] * x[i];
    return res;
}

void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void rodrigues_rotate_point(const double *rot, const double *pt, double *rotatedPt)
{
    int i;
    double sqtheta = sqsum(3, rot);
    if (sqtheta != 0) {
        double theta, costheta, sintheta, theta_inverse, tmp;
        double w[3], w_cross_pt[3];
        theta = sqrt(sqtheta);
        costheta = cos(theta);
        sintheta = sin(theta);
        theta_inverse = 1.0 / theta;
        for (i = 0; i < 3; i++)
            w[i] = rot[i] * theta_inverse;
        cross(w, pt, w_cross_pt);
        tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1. - costheta);
        for (i = 0; i < 3; i++)
            rotatedPt[i] = pt[i] * costheta + w_cross_pt[i] * sintheta + w[i] * tmp;
    } else {
        double rot_cross_pt[3];
        cross(rot, pt, rot_cross_pt);
        for (i = 0; i < 3; i++)
            rotatedPt[i] = pt[i] + rot_cross_pt[i];
    }
}

void radial_distort(const double *rad_params, double *proj)
{
    double rsq, L;
    rsq = sqsum(2, proj);
    L = 1. + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
    proj[0] = proj[0] * L;
    proj[1] = proj[1] * L;
}

void project(const double *cam, const double *X, double *proj)
{
    double Xo[3], Xcam[3];
    Xo[0] = X[0] - cam[3];
    Xo[1] = X[1] - cam[4];
    Xo[2] = X[2] - cam[5];
    rodrigues_rotate_point(&cam[0], Xo, Xcam);
    proj[0] = Xcam[0] / Xcam[2];
    proj[1] = Xcam[1] / Xcam[2];
    radial_distort(&cam[9], proj);
    proj[0] = proj[0] * cam[6] + cam[7];
    proj[1] = proj[1] * cam[6] + cam[8];
}

void compute_reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                          double *err)
{
    double proj[2];
    project(cam, X, proj);
    err[0] = (*w) * (proj[0] - feat[0]);
    err[1] = (*w) * (proj[1] - feat[1]);
}
