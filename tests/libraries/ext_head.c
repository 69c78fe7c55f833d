/* A head calling `wsum`, a function whose source radtap is not given: `ext_c.lib` describes
   it (-ext), `ext_wsum.c` is its code, `ext_wsum_deriv.c` the wsum_d / wsum_b its user writes. */
void wsum(int n, const double *x, double *e, double *s);

void head(int n, double *x, double *y) {
    double e[8], s;
    wsum(n, x, e, &s);
    *y = s * e[1];
    x[0] = x[0] * s;
    wsum(n, x, e, &s);
    *y += s * e[0];
}
