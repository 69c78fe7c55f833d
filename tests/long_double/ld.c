#include <math.h>
/* Ours (issue 44 item 8): long double through a static function result, a recurrence the
 * adjoint records (c *= a[i]), quotients and the long double libm (sqrtl, expl, powl with a
 * real exponent, fabsl, sinl, atan2l). */
static long double g(long double x) { return x * x + 1.0L; }
void f(int n, long double *a, long double *y) {
  long double c = 1.0L, s = 0.0L;
  int i;
  for (i = 0; i < n; i++) {
    c *= a[i];
    s += g(a[i]) / c;
  }
  *y = c * s + a[0] / (a[1] * a[1]) + sqrtl(a[2]) * expl(a[3]) + powl(a[4], a[0])
       + fabsl(sinl(a[1] - 2.0L)) + atan2l(a[2], a[3]);
}
