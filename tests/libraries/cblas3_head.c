/* CBLAS triangular solves, rank-1 updates and swaps with no BLAS source: cblas_dtrsm from the
   left and the right, row- and column-major, unit and not, transposed and not; cblas_dtrsv,
   cblas_dger, cblas_dswap, and cblas_idamax choosing a row. */
#include <cblas.h>

void head(int n, const double *a, double *b, double *c, double *f) {
    double u[16], w[4];
    for (int i = 0; i < n * n; i++)
        u[i] = a[i];
    int p = (int)cblas_idamax(n, a, 1);
    cblas_dswap(2, &b[p], n, &c[p], n);
    cblas_dger(CblasRowMajor, n, n, -0.25, b, 1, c, 1, u, n);
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, n, 2, 1.0, a, n, b, n);
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, n, 2, 0.5, u, n, c, 2);
    cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasTrans, CblasNonUnit, 2, n, 2.0, u, n, c, 2);
    cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasNoTrans, CblasUnit, 2, n, 1.0, a, n, b, n);
    for (int i = 0; i < n; i++)
        w[i] = b[i] + c[2 * i];
    cblas_dtrsv(CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit, n, u, n, w, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, n, a, n, w, 1);
    *f = cblas_ddot(n, w, 1, b, 1) + cblas_ddot(2 * n, c, 1, b, 1);
}
