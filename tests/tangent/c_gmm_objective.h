/* Types and prototypes of c_gmm_objective.c (ADBench-style Gaussian mixture). */
#ifndef C_GMM_OBJECTIVE_H
#define C_GMM_OBJECTIVE_H

typedef struct {
    double gamma;
    int m;
} Wishart;

double arr_max(int n, const double *x);
double logsumexp(int n, const double *x);
double sqnorm(int n, const double *x);
void subtract(int d, const double *x, const double *y, double *out);
void Qtimesx(int d, const double *q_diag, const double *l, const double *x, double *out);
void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err);

#endif
