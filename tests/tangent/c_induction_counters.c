// radtap: -head counters -vars "x l" -outvars "y"
// sizes: n=5 x=n l=n*n y=n
// Integer counters the adjoint rebuilds instead of recording them: loop variables that
// are read only inside loops over them (nothing to record on entry), a packed-triangle
// index stepped by `k++` inside a nested loop, a stride `m += 2` and `m--`, a counter
// stepped in a `while` loop; and one whose value after a loop is read by a derivative
// (`w * i`), which stays recorded.
#include <math.h>

void counters(int n, const double *x, const double *l, double *y)
{
    int i, j, k, m, c;
    double w;
    for (i = 0; i < n; i++)
        y[i] = x[i] * x[i];
    k = 0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            y[j] = y[j] + l[k] * sin(x[i]);
            k++;
        }
    m = 1;
    for (i = 0; i < n; i++) {
        y[i] = y[i] * (1.0 + 0.1 * l[m] * x[i]);
        m += 2;
        m--;
    }
    c = 0;
    while (c < n - 1) {
        y[c + 1] = y[c + 1] + 0.5 * y[c] * x[c];
        c++;
    }
    w = x[0];
    for (i = 0; i < n - 1; i++)
        w = w * 0.5 + x[i + 1];
    y[0] = y[0] + w * i;
}
