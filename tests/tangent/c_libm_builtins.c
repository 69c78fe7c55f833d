// radtap: -head cbi_head -vars "x" -outvars "y"
// sizes: x=3 y=2
/* GCC's builtins for math.h functions, as macros expand to them and as some codes call them:
   `__builtin_exp(x)` is `exp`'s record in the vocabulary (refused before as an intrinsic
   with no rule), and `__builtin_huge_val()` (HUGE_VAL) a constant of its own. The file
   includes math.h, as code reaching these through its macros does: the derivative calls
   `cos`, `copysign` by name and needs their declarations. */
#include <math.h>

void cbi_head(const double *x, double *y) {
  double big = __builtin_huge_val();
  y[0] = __builtin_exp(x[0]) * __builtin_sqrt(x[1]) + __builtin_fabs(x[2] - 2.0);
  y[1] = __builtin_pow(x[0], x[2]) + (x[1] < big ? __builtin_sin(x[1]) : 0.0);
}
