// radtap's tangents of the CBLAS routines it describes built in (blas.lib), written as CBLAS
// calls. Each real argument is followed by its derivative; a function's primal result comes
// last (by address) and its derivative is returned. Sections start at a line `//> NAME`.
//> cblas_ddot_d
double cblas_ddot_d(const int n, const double *x, const double *xd, const int incx,
                    const double *y, const double *yd, const int incy, double *res) {
    /* Tangent of cblas_ddot (radtap built-in): d(x.y) = xd.y + x.yd. */
    *res = cblas_ddot(n, x, incx, y, incy);
    return cblas_ddot(n, xd, incx, y, incy) + cblas_ddot(n, x, incx, yd, incy);
}
//> cblas_dnrm2_d
double cblas_dnrm2_d(const int n, const double *x, const double *xd, const int incx, double *res) {
    /* Tangent of cblas_dnrm2 (radtap built-in): d|x| = x.xd / |x| (0 at x = 0). */
    *res = cblas_dnrm2(n, x, incx);
    return *res != 0.0 ? cblas_ddot(n, x, incx, xd, incx) / *res : 0.0;
}
//> cblas_daxpy_d
void cblas_daxpy_d(const int n, const double alpha, const double alphad, const double *x,
                   const double *xd, const int incx, double *y, double *yd, const int incy) {
    /* Tangent of cblas_daxpy (radtap built-in): yd = yd + alpha*xd + alphad*x. */
    cblas_daxpy(n, alpha, xd, incx, yd, incy);
    cblas_daxpy(n, alphad, x, incx, yd, incy);
    cblas_daxpy(n, alpha, x, incx, y, incy);
}
//> cblas_dscal_d
void cblas_dscal_d(const int n, const double alpha, const double alphad, double *x, double *xd,
                   const int incx) {
    /* Tangent of cblas_dscal (radtap built-in): xd = alpha*xd + alphad*x. */
    cblas_dscal(n, alpha, xd, incx);
    cblas_daxpy(n, alphad, x, incx, xd, incx);
    cblas_dscal(n, alpha, x, incx);
}
//> cblas_dcopy_d
void cblas_dcopy_d(const int n, const double *x, const double *xd, const int incx, double *y,
                   double *yd, const int incy) {
    /* Tangent of cblas_dcopy (radtap built-in): yd = xd. */
    cblas_dcopy(n, xd, incx, yd, incy);
    cblas_dcopy(n, x, incx, y, incy);
}
//> cblas_dgemv_d
#include <stdlib.h>
void cblas_dgemv_d(CBLAS_ORDER layout, CBLAS_TRANSPOSE trans, const int m, const int n,
                   const double alpha, const double alphad, const double *a, const double *ad,
                   const int lda, const double *x, const double *xd, const int incx,
                   const double beta, const double betad, double *y, double *yd, const int incy) {
    /* Tangent of cblas_dgemv (radtap built-in):
       yd = alpha*op(A)*xd + alpha*op(Ad)*x + alphad*op(A)*x + beta*yd + betad*y. */
    int ly = trans == CblasNoTrans ? m : n;
    double *t = 0;
    if (betad != 0.0) {
        t = (double *)malloc(sizeof(double) * (ly > 0 ? ly : 1));
        cblas_dcopy(ly, y, incy, t, 1);
    }
    cblas_dgemv(layout, trans, m, n, alpha, a, lda, xd, incx, beta, yd, incy);
    cblas_dgemv(layout, trans, m, n, alpha, ad, lda, x, incx, 1.0, yd, incy);
    cblas_dgemv(layout, trans, m, n, alphad, a, lda, x, incx, 1.0, yd, incy);
    if (t) {
        cblas_daxpy(ly, betad, t, 1, yd, incy);
        free(t);
    }
    cblas_dgemv(layout, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
//> cblas_dgemm_d
#include <stdlib.h>
void cblas_dgemm_d(CBLAS_ORDER layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb,
                   const int m, const int n, const int k, const double alpha,
                   const double alphad, const double *a, const double *ad, const int lda,
                   const double *b, const double *bd, const int ldb, const double beta,
                   const double betad, double *c, double *cd, const int ldc) {
    /* Tangent of cblas_dgemm (radtap built-in):
       Cd = alpha*op(A)*op(Bd) + alpha*op(Ad)*op(B) + alphad*op(A)*op(B) + beta*Cd + betad*C. */
    int rows = layout == CblasRowMajor ? m : n, cols = layout == CblasRowMajor ? n : m;
    double *t = 0;
    if (betad != 0.0) {
        t = (double *)malloc(sizeof(double) * (rows * cols > 0 ? rows * cols : 1));
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                t[i * cols + j] = c[i * ldc + j];
    }
    cblas_dgemm(layout, transa, transb, m, n, k, alpha, a, lda, bd, ldb, beta, cd, ldc);
    cblas_dgemm(layout, transa, transb, m, n, k, alpha, ad, lda, b, ldb, 1.0, cd, ldc);
    cblas_dgemm(layout, transa, transb, m, n, k, alphad, a, lda, b, ldb, 1.0, cd, ldc);
    if (t) {
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                cd[i * ldc + j] += betad * t[i * cols + j];
        free(t);
    }
    cblas_dgemm(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
//> cblas_dswap_d
void cblas_dswap_d(const int n, double *x, double *xd, const int incx, double *y, double *yd,
                   const int incy) {
    /* Tangent of cblas_dswap (radtap built-in): the derivatives are swapped with the values. */
    cblas_dswap(n, xd, incx, yd, incy);
    cblas_dswap(n, x, incx, y, incy);
}
//> cblas_dger_d
void cblas_dger_d(CBLAS_ORDER layout, const int m, const int n, const double alpha,
                  const double alphad, const double *x, const double *xd, const int incx,
                  const double *y, const double *yd, const int incy, double *a, double *ad,
                  const int lda) {
    /* Tangent of cblas_dger (radtap built-in): Ad += alphad*x*y' + alpha*xd*y' + alpha*x*yd'. */
    cblas_dger(layout, m, n, alphad, x, incx, y, incy, ad, lda);
    cblas_dger(layout, m, n, alpha, xd, incx, y, incy, ad, lda);
    cblas_dger(layout, m, n, alpha, x, incx, yd, incy, ad, lda);
    cblas_dger(layout, m, n, alpha, x, incx, y, incy, a, lda);
}
//> cblas_dtrsv_d
#include <stdlib.h>
void cblas_dtrsv_d(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag,
                   const int n, const double *a, const double *ad, const int lda, double *x,
                   double *xd, const int incx) {
    /* Tangent of cblas_dtrsv (radtap built-in): xd' = op(A)^-1*(xd - op(Ad)*x'), Ad on A's
       triangle (without its diagonal when A's is unit). */
    double *t = (double *)malloc(sizeof(double) * (n > 0 ? n : 1));
    cblas_dtrsv(layout, uplo, trans, diag, n, a, lda, x, incx);
    cblas_dcopy(n, x, incx, t, 1);
    cblas_dtrmv(layout, uplo, trans, diag, n, ad, lda, t, 1);
    if (diag == CblasUnit)
        cblas_daxpy(n, -1.0, x, incx, t, 1);
    cblas_daxpy(n, -1.0, t, 1, xd, incx);
    free(t);
    cblas_dtrsv(layout, uplo, trans, diag, n, a, lda, xd, incx);
}
//> cblas_dtrsm_d
#include <stdlib.h>
void cblas_dtrsm_d(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa,
                   CBLAS_DIAG diag, const int m, const int n, const double alpha,
                   const double alphad, const double *a, const double *ad, const int lda,
                   double *b, double *bd, const int ldb) {
    /* Tangent of cblas_dtrsm (radtap built-in): op(A)*X = alpha*B (left), so
       Xd = op(A)^-1*(alphad*B + alpha*Bd - op(Ad)*X); on the right likewise. */
    int rows = layout == CblasRowMajor ? m : n, cols = layout == CblasRowMajor ? n : m;
    double *t = (double *)malloc(sizeof(double) * (rows * cols > 0 ? rows * cols : 1));
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            bd[i * ldb + j] = alpha * bd[i * ldb + j] + alphad * b[i * ldb + j];
    cblas_dtrsm(layout, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            t[i * cols + j] = b[i * ldb + j];
    cblas_dtrmm(layout, side, uplo, transa, diag, m, n, 1.0, ad, lda, t, cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            bd[i * ldb + j] -= t[i * cols + j] - (diag == CblasUnit ? b[i * ldb + j] : 0.0);
    free(t);
    cblas_dtrsm(layout, side, uplo, transa, diag, m, n, 1.0, a, lda, bd, ldb);
}
