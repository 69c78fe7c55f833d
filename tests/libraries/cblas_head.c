/* A head calling CBLAS with no BLAS source given: radtap's built-in records describe
   cblas_dgemm, cblas_dgemv, cblas_daxpy, cblas_ddot, cblas_dnrm2, and their derivatives are
   CBLAS calls (linked with -lblas). Row- and column-major, transposed and not. */
#include <cblas.h>

void head(int n, const double *a, const double *x, double *y, double *f) {
    double t[16];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 0.5, a, n, x, n, 0.0, t, n);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, x[1], a, n, x, n, x[2], t, n);
    cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.5, a, n, t, 1, 0.0, y, 1);
    cblas_daxpy(n, x[0], x, 1, y, 1);
    *f = cblas_ddot(n * n, t, 1, a, 1) + cblas_dnrm2(n, y, 1);
}
