// radtap: -head blocklocals -vars "x" -outvars "y"
// sizes: n=6 x=n y=n
// Locals declared inside for/if bodies carry derivatives (their block scopes belong to the
// function): s and t live only inside the loop and the branch.
#include <math.h>

void blocklocals(int n, const double *x, double *y) {
    int i;
    for (i = 0; i < n; i++) {
        double s = x[i] * x[i];
        if (x[i] > 0.2) {
            double t = sin(s) + 1.5;
            y[i] = s * t;
        } else {
            y[i] = s;
        }
    }
}
