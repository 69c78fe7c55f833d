// radtap: -head "status_step(y)/(x)"
// sizes: n=4 x=n y=n
/* A C head returning an integer status, as the right-hand sides of SUNDIALS and the
   functions of GSL do (`int f(realtype t, N_Vector y, N_Vector ydot, void *user_data)`):
   `radtap validate` refused every such head ("the result of `status_step` is not a real
   scalar"); its driver now declares the result with its own type and checks the arguments. */
#include <math.h>

int status_step(int n, const double *x, double *y)
{
    int i;
    if (n <= 0) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        y[i] = sin(x[i]) * x[(i + 1) % n];
    }
    return 0;
}
