/* GMM objective (negative log-likelihood plus Wishart prior), written after the published
   ADBench C objective: alphas[k], means[k*d], icf[k*d*(d+1)/2] (log-diagonal then the packed
   strictly-lower triangle of each inverse Cholesky factor), x[n*d]. */
#include <math.h>
#include <stdlib.h>
#include "gmm.h"

#define GMM_PI 3.14159265358979323846

double arr_max(int n, const double *x)
{
    int i;
    double m = x[0];
    for (i = 1; i < n; i++)
        if (m < x[i])
            m = x[i];
    return m;
}

double sqnorm(int n, const double *x)
{
    int i;
    double res = x[0] * x[0];
    for (i = 1; i < n; i++)
        res = res + x[i] * x[i];
    return res;
}

void subtract(int d, const double *x, const double *y, double *out)
{
    int id;
    for (id = 0; id < d; id++)
        out[id] = x[id] - y[id];
}

double log_sum_exp(int n, const double *x)
{
    int i;
    double mx = arr_max(n, x);
    double semx = 0.0;
    for (i = 0; i < n; i++)
        semx = semx + exp(x[i] - mx);
    return log(semx) + mx;
}

double log_gamma_distrib(double a, double p)
{
    int j;
    double out = 0.25 * p * (p - 1) * log(GMM_PI);
    for (j = 1; j <= p; j++)
        out = out + lgamma(a + 0.5 * (1 - j));
    return out;
}

double log_wishart_prior(int p, int k, Wishart wishart, const double *sum_qs,
                         const double *Qdiags, const double *icf)
{
    int ik;
    int n = p + wishart.m + 1;
    int icf_sz = p * (p + 1) / 2;
    double C = n * p * (log(wishart.gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * n, p);
    double out = 0;
    for (ik = 0; ik < k; ik++) {
        double frobenius = sqnorm(p, &Qdiags[ik * p]) + sqnorm(icf_sz - p, &icf[ik * icf_sz + p]);
        out = out + 0.5 * wishart.gamma * wishart.gamma * frobenius - wishart.m * sum_qs[ik];
    }
    return out - k * C;
}

void preprocess_qs(int d, int k, const double *icf, double *sum_qs, double *Qdiags)
{
    int ik, id;
    int icf_sz = d * (d + 1) / 2;
    for (ik = 0; ik < k; ik++) {
        sum_qs[ik] = 0.;
        for (id = 0; id < d; id++) {
            double q = icf[ik * icf_sz + id];
            sum_qs[ik] = sum_qs[ik] + q;
            Qdiags[ik * d + id] = exp(q);
        }
    }
}

void Qtimesx(int d, const double *Ldiag, const double *icf, const double *x, double *out)
{
    int i, j;
    int Lparamsidx;
    for (i = 0; i < d; i++)
        out[i] = Ldiag[i] * x[i];
    Lparamsidx = 0;
    for (i = 0; i < d; i++)
        for (j = i + 1; j < d; j++) {
            out[j] = out[j] + icf[Lparamsidx] * x[i];
            Lparamsidx++;
        }
}

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err)
{
    int ix, ik;
    const double CONSTANT = -n * d * 0.5 * log(2 * GMM_PI);
    int icf_sz = d * (d + 1) / 2;
    double *Qdiags = (double *)malloc(d * k * sizeof(double));
    double *sum_qs = (double *)malloc(k * sizeof(double));
    double *xcentered = (double *)malloc(d * sizeof(double));
    double *Qxcentered = (double *)malloc(d * sizeof(double));
    double *main_term = (double *)malloc(k * sizeof(double));
    double slse, lse_alphas;

    preprocess_qs(d, k, icf, sum_qs, Qdiags);
    slse = 0.;
    for (ix = 0; ix < n; ix++) {
        for (ik = 0; ik < k; ik++) {
            subtract(d, &x[ix * d], &means[ik * d], xcentered);
            Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xcentered, Qxcentered);
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
        }
        slse = slse + log_sum_exp(k, main_term);
    }
    lse_alphas = log_sum_exp(k, alphas);
    *err = CONSTANT + slse - n * lse_alphas;
    *err = *err + log_wishart_prior(d, k, wishart, sum_qs, Qdiags, icf);

    free(Qdiags);
    free(sum_qs);
    free(xcentered);
    free(Qxcentered);
    free(main_term);
}
