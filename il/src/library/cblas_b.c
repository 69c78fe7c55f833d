// radtap's adjoints of the CBLAS routines it describes built in (blas.lib), written as CBLAS
// calls. Each real argument is followed by its adjoint (a scalar's by address), a function's
// result adjoint comes last. On entry the primal arguments hold the values of the call; each
// adjoint goes from the adjoint after the call to the adjoint before it. Sections: `//> NAME`.
//> cblas_ddot_b
void cblas_ddot_b(const int n, const double *x, double *xb, const int incx, const double *y,
                  double *yb, const int incy, double resb) {
    /* Adjoint of cblas_ddot (radtap built-in). */
    cblas_daxpy(n, resb, y, incy, xb, incx);
    cblas_daxpy(n, resb, x, incx, yb, incy);
}
//> cblas_dnrm2_b
void cblas_dnrm2_b(const int n, const double *x, double *xb, const int incx, double resb) {
    /* Adjoint of cblas_dnrm2 (radtap built-in). */
    double r = cblas_dnrm2(n, x, incx);
    if (r != 0.0)
        cblas_daxpy(n, resb / r, x, incx, xb, incx);
}
//> cblas_daxpy_b
void cblas_daxpy_b(const int n, const double alpha, double *alphab, const double *x, double *xb,
                   const int incx, double *y, double *yb, const int incy) {
    /* Adjoint of cblas_daxpy (radtap built-in). */
    *alphab += cblas_ddot(n, x, incx, yb, incy);
    cblas_daxpy(n, alpha, yb, incy, xb, incx);
}
//> cblas_dscal_b
void cblas_dscal_b(const int n, const double alpha, double *alphab, double *x, double *xb,
                   const int incx) {
    /* Adjoint of cblas_dscal (radtap built-in). */
    *alphab += cblas_ddot(n, x, incx, xb, incx);
    cblas_dscal(n, alpha, xb, incx);
}
//> cblas_dcopy_b
void cblas_dcopy_b(const int n, const double *x, double *xb, const int incx, double *y,
                   double *yb, const int incy) {
    /* Adjoint of cblas_dcopy (radtap built-in). */
    cblas_daxpy(n, 1.0, yb, incy, xb, incx);
    cblas_dscal(n, 0.0, yb, incy < 0 ? -incy : incy);
}
//> cblas_dgemv_b
#include <stdlib.h>
void cblas_dgemv_b(CBLAS_ORDER layout, CBLAS_TRANSPOSE trans, const int m, const int n,
                   const double alpha, double *alphab, const double *a, double *ab,
                   const int lda, const double *x, double *xb, const int incx,
                   const double beta, double *betab, double *y, double *yb, const int incy) {
    /* Adjoint of cblas_dgemv (radtap built-in). */
    int notrans = trans == CblasNoTrans;
    int ly = notrans ? m : n;
    double *t = (double *)malloc(sizeof(double) * (ly > 0 ? ly : 1));
    cblas_dgemv(layout, trans, m, n, 1.0, a, lda, x, incx, 0.0, t, 1);
    *alphab += cblas_ddot(ly, t, 1, yb, incy);
    free(t);
    if (beta != 0.0)
        *betab += cblas_ddot(ly, y, incy, yb, incy);
    if (notrans) {
        cblas_dgemv(layout, CblasTrans, m, n, alpha, a, lda, yb, incy, 1.0, xb, incx);
        cblas_dger(layout, m, n, alpha, yb, incy, x, incx, ab, lda);
    } else {
        cblas_dgemv(layout, CblasNoTrans, m, n, alpha, a, lda, yb, incy, 1.0, xb, incx);
        cblas_dger(layout, m, n, alpha, x, incx, yb, incy, ab, lda);
    }
    cblas_dscal(ly, beta, yb, incy < 0 ? -incy : incy);
}
//> cblas_dgemm_b
#include <stdlib.h>
void cblas_dgemm_b(CBLAS_ORDER layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb,
                   const int m, const int n, const int k, const double alpha, double *alphab,
                   const double *a, double *ab, const int lda, const double *b, double *bb,
                   const int ldb, const double beta, double *betab, double *c, double *cb,
                   const int ldc) {
    /* Adjoint of cblas_dgemm (radtap built-in). */
    int na = transa == CblasNoTrans, nb = transb == CblasNoTrans;
    int rows = layout == CblasRowMajor ? m : n, cols = layout == CblasRowMajor ? n : m;
    double *t = (double *)malloc(sizeof(double) * (rows * cols > 0 ? rows * cols : 1));
    cblas_dgemm(layout, transa, transb, m, n, k, 1.0, a, lda, b, ldb, 0.0, t, cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            *alphab += t[i * cols + j] * cb[i * ldc + j];
            if (beta != 0.0)
                *betab += c[i * ldc + j] * cb[i * ldc + j];
        }
    free(t);
    if (na)
        cblas_dgemm(layout, CblasNoTrans, nb ? CblasTrans : CblasNoTrans, m, k, n, alpha, cb, ldc,
                    b, ldb, 1.0, ab, lda);
    else
        cblas_dgemm(layout, transb, CblasTrans, k, m, n, alpha, b, ldb, cb, ldc, 1.0, ab, lda);
    if (nb)
        cblas_dgemm(layout, na ? CblasTrans : CblasNoTrans, CblasNoTrans, k, n, m, alpha, a, lda,
                    cb, ldc, 1.0, bb, ldb);
    else
        cblas_dgemm(layout, CblasTrans, transa, n, k, m, alpha, cb, ldc, a, lda, 1.0, bb, ldb);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            cb[i * ldc + j] *= beta;
}
//> cblas_dswap_b
void cblas_dswap_b(const int n, double *x, double *xb, const int incx, double *y, double *yb,
                   const int incy) {
    /* Adjoint of cblas_dswap (radtap built-in). */
    cblas_dswap(n, xb, incx, yb, incy);
}
//> cblas_dger_b
#include <stdlib.h>
void cblas_dger_b(CBLAS_ORDER layout, const int m, const int n, const double alpha,
                  double *alphab, const double *x, double *xb, const int incx, const double *y,
                  double *yb, const int incy, double *a, double *ab, const int lda) {
    /* Adjoint of cblas_dger (radtap built-in). */
    double *t = (double *)malloc(sizeof(double) * (m > 0 ? m : 1));
    cblas_dgemv(layout, CblasNoTrans, m, n, 1.0, ab, lda, y, incy, 0.0, t, 1);
    *alphab += cblas_ddot(m, x, incx, t, 1);
    cblas_daxpy(m, alpha, t, 1, xb, incx);
    free(t);
    cblas_dgemv(layout, CblasTrans, m, n, alpha, ab, lda, x, incx, 1.0, yb, incy);
}
//> cblas_dtrsv_b
#include <stdlib.h>
void cblas_dtrsv_b(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag,
                   const int n, const double *a, double *ab, const int lda, double *x,
                   double *xb, const int incx) {
    /* Adjoint of cblas_dtrsv (radtap built-in): with x' = op(A)^-1*x and u = op(A)^-T*xb,
       xb := u and Ab -= u*x'^T (op = N) or x'*u^T (op = T) on A's triangle. */
    int notrans = trans == CblasNoTrans;
    double *v = (double *)malloc(sizeof(double) * (n > 0 ? 2 * n : 1)), *u = v + n;
    cblas_dcopy(n, x, incx, v, 1);
    cblas_dtrsv(layout, uplo, trans, diag, n, a, lda, v, 1);
    cblas_dtrsv(layout, uplo, notrans ? CblasTrans : CblasNoTrans, diag, n, a, lda, xb, incx);
    cblas_dcopy(n, xb, incx, u, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if ((uplo == CblasUpper && i > j) || (uplo == CblasLower && i < j) ||
                (diag == CblasUnit && i == j))
                continue;
            double g = notrans ? u[i] * v[j] : v[i] * u[j];
            ab[layout == CblasRowMajor ? i * lda + j : i + j * lda] -= g;
        }
    free(v);
}
//> cblas_dtrsm_b
#include <stdlib.h>
void cblas_dtrsm_b(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa,
                   CBLAS_DIAG diag, const int m, const int n, const double alpha,
                   double *alphab, const double *a, double *ab, const int lda, double *b,
                   double *bb, const int ldb) {
    /* Adjoint of cblas_dtrsm (radtap built-in): with X = alpha*op(A)^-1*B (left) and
       C = op(A)^-T*Bb: alphab += <C, B>, Ab -= C*X^T (op = N) or X*C^T (op = T) on A's
       triangle, Bb := alpha*C; on the right C = Bb*op(A)^-T, Ab -= X^T*C (N) or C^T*X (T). */
    int left = side == CblasLeft, notrans = transa == CblasNoTrans;
    int rows = layout == CblasRowMajor ? m : n, cols = layout == CblasRowMajor ? n : m;
    int k = left ? m : n;
    double *x = (double *)malloc(sizeof(double) * (rows * cols > 0 ? rows * cols : 1));
    double *g = (double *)malloc(sizeof(double) * (k > 0 ? k * k : 1));
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            x[i * cols + j] = b[i * ldb + j];
    cblas_dtrsm(layout, side, uplo, transa, diag, m, n, alpha, a, lda, x, cols);
    cblas_dtrsm(layout, side, uplo, notrans ? CblasTrans : CblasNoTrans, diag, m, n, 1.0, a, lda,
                bb, ldb);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            *alphab += bb[i * ldb + j] * b[i * ldb + j];
    if (left && notrans)
        cblas_dgemm(layout, CblasNoTrans, CblasTrans, m, m, n, 1.0, bb, ldb, x, cols, 0.0, g, k);
    else if (left)
        cblas_dgemm(layout, CblasNoTrans, CblasTrans, m, m, n, 1.0, x, cols, bb, ldb, 0.0, g, k);
    else if (notrans)
        cblas_dgemm(layout, CblasTrans, CblasNoTrans, n, n, m, 1.0, x, cols, bb, ldb, 0.0, g, k);
    else
        cblas_dgemm(layout, CblasTrans, CblasNoTrans, n, n, m, 1.0, bb, ldb, x, cols, 0.0, g, k);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            if ((uplo == CblasUpper && i > j) || (uplo == CblasLower && i < j) ||
                (diag == CblasUnit && i == j))
                continue;
            int at = layout == CblasRowMajor ? i * k + j : i + j * k;
            ab[layout == CblasRowMajor ? i * lda + j : i + j * lda] -= g[at];
        }
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            bb[i * ldb + j] *= alpha;
    free(x);
    free(g);
}
