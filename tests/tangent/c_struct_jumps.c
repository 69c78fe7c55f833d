// radtap: -head sj_c -vars "x" -outvars "y"
// sizes: n=9 x=n y=2
// Loops with jumps reversed as loops (issue 21 item 8): a for left by break in
// the middle of its body; continue and two breaks, one in a nested if with code
// after it; a while with continue and break; a do/while left by break; a for
// counting down left by break; a for whose start the body changes; nested for
// loops whose inner loop breaks and continues.
#include <math.h>

void sj_c(int n, const double *x, double *y) {
  int i, j, k, m;
  double s = 1.0, t = 0.0;
  for (i = 0; i < n; i++) {
    s = s * (1.0 + 0.1 * sin(x[i]));
    if (i > n - 4)
      break;
    t += s * x[i];
  }
  for (i = 1; i < n; ++i) {
    if (i % 3 == 0)
      continue;
    t += 0.5 * x[i] * s;
    if (i == 4) {
      t *= x[0];
      if (x[1] > 0.1)
        break;
      t += 1.0;
    }
    s += 0.01 * t;
    if (i >= 6)
      break;
  }
  k = 0;
  while (k < n) {
    k++;
    if (k % 2 == 0)
      continue;
    if (k > 5)
      break;
    s += cos(x[k - 1]) * t * 0.1;
  }
  k = 0;
  do {
    t += 0.1 * s * x[k];
    k++;
    if (k >= 3)
      break;
    s *= 0.95;
  } while (k < n);
  for (i = n - 1; i >= 0; i--) {
    t += 0.05 * s * x[i];
    if (i < 3)
      break;
    s *= 0.99;
  }
  m = 1;
  for (i = m; i < n; i++) {
    m++;
    t += 0.05 * x[i] * x[m - 1];
    if (m > 5)
      break;
  }
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      if (j > i)
        break;
      if ((i + j) % 2 == 1)
        continue;
      s += 0.01 * x[i] * x[j] * t;
    }
    if (i == 4)
      break;
  }
  y[0] = s;
  y[1] = t;
}
