/* Ours (issue 44 item 8): long double through a static function result, a recurrence the
 * adjoint records (c *= a[i]) and quotients. */
static long double g(long double x) { return x * x + 1.0L; }
void f(int n, long double *a, long double *y) {
  long double c = 1.0L, s = 0.0L;
  int i;
  for (i = 0; i < n; i++) {
    c *= a[i];
    s += g(a[i]) / c;
  }
  *y = c * s + a[0] / (a[1] * a[1]);
}
