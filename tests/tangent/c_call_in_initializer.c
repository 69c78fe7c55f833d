// radtap: -head initcalls -vars "x" -outvars "y"
// sizes: n=4 x=n y=n
// Calls to differentiated functions in C declaration initialisers: at the top of the
// body, two declarators in one declaration inside a loop (one reading the other), under a
// cast, and in a `for` initialiser (an integer start computed by one). Each is hoisted like a call in an assignment.
#include <math.h>

static double sq(double t)
{
    return t * t + 0.5 * t;
}

static double lin(double a, double b)
{
    return 2.0 * a - b;
}

void initcalls(int n, const double *x, double *y)
{
    double b = sq(x[0]);
    for (int i = 0; i < n; i++) {
        double c = lin(x[i], b), d = sq(c) + sin(x[i]);
        y[i] = c * d;
    }
    double e = (double)sq(b) * 0.1;
    y[0] += e;
    for (int k = (int)floor(sq(1.5)); k < 5; k++) {
        y[k % n] += 0.1 * x[k % n];
    }
}
