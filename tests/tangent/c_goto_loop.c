// radtap: -head goto_sum -vars "x"
// sizes: n=7 x=n
// Loop written with goto: test at label top on an integer counter, backward
// goto top, forward goto skip on odd i, exit to label done; returns double.
#include <math.h>

double goto_sum(int n, const double *x)
{
    int i = 0;
    double s = 0.5;
top:
    if (i >= n)
        goto done;
    s = s * 0.8 + x[i] * exp(-0.3 * x[i]);
    if (i % 2 == 1)
        goto skip;
    s = s + 0.1 * x[i] * s;
skip:
    i++;
    goto top;
done:
    return s + 1.0;
}
