// radtap: -head for_break -vars "x" -outvars "y"
// sizes: n=8 x=n y=1
// A C for with continue and break (issue 21 item 8): its adjoint keeps the
// loop (no goto), counting the iterations started.
#include <math.h>

void for_break(int n, const double *x, double *y) {
  double s = 1.0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 1)
      continue;
    s = s * (1.0 + 0.2 * sin(x[i]));
    if (i > n - 3)
      break;
    s = s + 0.1 * x[i] * s;
  }
  *y = s;
}
