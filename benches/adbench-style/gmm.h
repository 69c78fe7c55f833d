/* GMM log-likelihood objective in the style of ADBench's C objective (gmm.h): the Wishart prior
   parameters travel in a typedef'd struct; the data are flat malloc'd arrays. */
#ifndef ADBENCH_GMM_H
#define ADBENCH_GMM_H

typedef struct {
    double gamma;
    int m;
} Wishart;

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err);

#endif
