// radtap: -head cmo_head -vars "a" -outvars "y"
// sizes: y=1
/* math.h functions that store through a pointer argument, over a variable that held an
   active value: `modf(v, &ip)` overwrites `ip` with the integral part (no derivative after),
   `frexp(v, &e)` sets the exponent. The record's signature says which argument is written;
   before, the analyses took `modf` to write nothing and the tangent kept `ip`'s old
   derivative. */
#include <math.h>

void cmo_head(double a, double *y) {
  double ip = 2.0 * a;
  int e = 0;
  double f = modf(3.25, &ip);
  double m = frexp(6.0, &e);
  *y = ip * a + f * a * a + m * e * a;
}
