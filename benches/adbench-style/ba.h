/* Bundle-adjustment reprojection error in the style of ADBench's C objective (ba.h): a camera
   is 11 parameters (Rodrigues rotation[3], centre[3], focal length, principal point[2], radial
   distortion[2]); the problem sizes travel in a typedef'd struct. */
#ifndef ADBENCH_BA_H
#define ADBENCH_BA_H

#define BA_NCAMPARAMS 11

typedef struct {
    int n; /* cameras */
    int m; /* points */
    int p; /* observations */
} BaSizes;

void compute_reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                          double *err);

#endif
