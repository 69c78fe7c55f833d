/* Constants and prototypes of c_ba_objective.c (ADBench-style bundle adjustment). */
#ifndef C_BA_OBJECTIVE_H
#define C_BA_OBJECTIVE_H

#define BA_NCAMPARAMS 11
#define BA_ROT_IDX 0
#define BA_C_IDX 3
#define BA_F_IDX 6
#define BA_X0_IDX 7
#define BA_RAD_IDX 9

typedef struct {
    double weight;
    int npts;
} BaConfig;

double sqsum(int n, const double *x);
void cross(const double *a, const double *b, double *out);
void rodrigues_rotate_point(const double *rot, const double *pt, double *rotated_pt);
void radial_distort(const double *rad_params, double *proj);
void project(const double *cam, const double *X, double *proj);
void ba_objective(int n, int m, const double *cams, const double *X,
                  const double *w, const double *feats, BaConfig cfg,
                  double *reproj_err, double *w_err);

#endif
