// radtap: -head search2d -vars "w" -outvars "y"
// sizes: n=4 m=3 w=12 y=3
// `return` from inside two nested loops, the common form of 2-D searches ("the first cell
// where the cumulative weight crosses a threshold"), and from a `switch` inside a loop. The
// adjoint refused them ("a `return` with a value before the end of the function"); each
// enclosing loop is now left by `if (returned != 0) break;` after the inner one.
#include <math.h>

static double first_crossing(int n, int m, const double *w, double thr)
{
    double cum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            cum += w[i * m + j] * w[i * m + j];
            if (cum >= thr)
                return cum * (i + 1) + w[j];
        }
    return cum * 0.5;
}

static double by_kind(int n, const double *w, int stop)
{
    double acc = 1.0;
    int k = 0;
    while (k < n) {
        switch (k % 3) {
        case 0:
            acc = acc * w[k];
            break;
        case 1:
            if (k >= stop)
                return acc + sin(w[k]);
            acc = acc + w[k] * w[k];
            break;
        default:
            acc = acc - 0.25 * w[k];
        }
        k++;
    }
    return acc * acc;
}

// A `switch` that always returns, one case returning from a loop: the flag the loop's exit
// tests must start clear.
static double pick(int k, const double *w)
{
    int i;
    switch (k) {
    case 0:
        for (i = 0; i < 3; i++) {
            if (w[i] > 100.0 + i)
                return w[i] * w[i];
        }
        return 2.0 * w[0] * w[1];
    default:
        return 3.0 * w[2];
    }
}

void search2d(int n, int m, const double *w, double *y)
{
    y[0] = first_crossing(n, m, w, 3.0);
    y[1] = first_crossing(n, m, w, 1000.0);
    y[2] = by_kind(n * m, w, 5) + by_kind(n * m, w, 100) + pick(0, w) + pick(1, w);
}
