/* Driver of ld.c in long double: the tangent against central differences, the adjoint against
 * the tangent (dot product); prints the two relative errors. */
#include <stdio.h>
void f(int n, long double *a, long double *y);
void f_d(int n, long double *a, long double *ad, long double *y, long double *yd);
void f_b(int n, long double *a, long double *ab, long double *y, long double *yb);
static long double rel(long double x, long double y) {
    long double d = x - y, m = y < 0 ? -y : y;
    return (d < 0 ? -d : d) / m;
}
int main(void) {
    enum { N = 5 };
    long double a[N], ad[N], ab[N], ap[N], am[N], y, yd, yb, yp, ym, h = 1e-7L, dot = 0;
    for (int i = 0; i < N; i++) {
        a[i] = 0.7L + 0.1L * i;
        ad[i] = 0.3L + 0.05L * i;
        ab[i] = 0;
        ap[i] = a[i] + h * ad[i];
        am[i] = a[i] - h * ad[i];
    }
    f_d(N, a, ad, &y, &yd);
    f(N, ap, &yp);
    f(N, am, &ym);
    yb = 1.3L;
    f_b(N, a, ab, &y, &yb);
    for (int i = 0; i < N; i++) dot += ad[i] * ab[i];
    printf("%Le %Le\n", rel((yp - ym) / (2 * h), yd), rel(dot, 1.3L * yd));
    return 0;
}
