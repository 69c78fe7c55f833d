// radtap: -head cearly -vars "x" -outvars "y"
// sizes: n=5 x=n y=1
// return before the end of a void function: from inside a for loop on a test
// never met (the sum stays below 100), and after it on the parity of n (n = 5:
// not taken, so the last statement runs).
#include <math.h>

void cearly(int n, const double *x, double *y)
{
    int i;
    *y = 0.5;
    for (i = 0; i < n; i++) {
        *y = *y + x[i] * exp(-0.5 * x[i]);
        if (*y > 100.0)
            return;
    }
    if (n % 2 == 0)
        return;
    *y = *y * x[0];
}
