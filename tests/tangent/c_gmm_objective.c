// radtap: -head "gmm_objective(err)/(alphas means icf)"
// sizes: d=3 k=2 n=4 alphas=k means=d*k icf=2*d*k x=d*n err=1
// ADBench-style Gaussian mixture log-likelihood, written as such C is: a
// typedef'd struct passed by value (Wishart) from the header next to the
// source, helpers on pointers declared by prototypes and defined after their
// caller, heap work arrays (malloc, freed), a VLA, parenthesised operands and
// &(a[i]) addresses. Q is diagonal exp(icf) plus a sub-diagonal l.
#include <math.h>
#include <stdlib.h>
#include "c_gmm_objective.h"

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err)
{
    int ix, ik;
    const double CONSTANT = -n * d * 0.5 * log(2 * 3.14159265358979);
    double *Qdiags = (double *)malloc(d * k * sizeof(double));
    double *sum_qs = (double *)malloc(k * sizeof(double));
    double *xcentered = (double *)malloc(d * sizeof(double));
    double *Qxcentered = (double *)malloc(d * sizeof(double));
    double main_term[k];
    double slse, lse_alphas, wterm;

    for (ik = 0; ik < k; ik++) {
        sum_qs[ik] = 0.0;
        for (ix = 0; ix < d; ix++) {
            sum_qs[ik] = sum_qs[ik] + icf[ik * 2 * d + ix];
            Qdiags[ik * d + ix] = exp(icf[ik * 2 * d + ix]);
        }
    }
    slse = 0.0;
    for (ix = 0; ix < n; ix++) {
        for (ik = 0; ik < k; ik++) {
            subtract(d, &(x[ix * d]), &(means[ik * d]), xcentered);
            Qtimesx(d, &(Qdiags[ik * d]), &(icf[ik * 2 * d + d]), xcentered, Qxcentered);
            main_term[ik] = (alphas[ik]) + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
        }
        slse = slse + logsumexp(k, main_term);
    }
    lse_alphas = logsumexp(k, alphas);
    wterm = 0.0;
    for (ik = 0; ik < k; ik++)
        wterm = wterm + 0.5 * wishart.gamma * wishart.gamma
                * (sqnorm(d, &(Qdiags[ik * d])) + sqnorm(d - 1, &(icf[ik * 2 * d + d])))
                - wishart.m * sum_qs[ik];
    *err = CONSTANT + slse - n * lse_alphas + wterm;
    free(Qdiags);
    free(sum_qs);
    free(xcentered);
    free(Qxcentered);
}

double arr_max(int n, const double *x)
{
    int i;
    double m = x[0];
    for (i = 1; i < n; i++)
        if (m < x[i])
            m = x[i];
    return m;
}

double logsumexp(int n, const double *x)
{
    int i;
    double mx = arr_max(n, x);
    double semx = 0.0;
    for (i = 0; i < n; i++)
        semx = semx + exp((x[i]) - mx);
    return log(semx) + mx;
}

double sqnorm(int n, const double *x)
{
    int i;
    double res = (x[0]) * x[0];
    for (i = 1; i < n; i++)
        res = res + (x[i]) * (x[i]);
    return res;
}

void subtract(int d, const double *x, const double *y, double *out)
{
    int id;
    for (id = 0; id < d; id++)
        out[id] = (x[id]) - y[id];
}

void Qtimesx(int d, const double *q_diag, const double *l, const double *x, double *out)
{
    int i;
    for (i = 0; i < d; i++)
        out[i] = q_diag[i] * x[i];
    for (i = 1; i < d; i++)
        out[i] = out[i] + (l[i - 1]) * x[i - 1];
}
