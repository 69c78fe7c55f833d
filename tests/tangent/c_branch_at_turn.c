// radtap: -head turn -vars "x p" -outvars "y"
// sizes: n=4 x=n y=n
// IFs at the turn of the adjoint (the last statements of a procedure, its forward sweep
// ending where its backward sweep begins): kept whole, each branch running its forward then
// its backward statements, with no control code pushed and popped at once (issue 21, item
// 5): an IF / ELSE IF / ELSE whose taken branch nests another IF at its end and calls a
// helper, a helper ending with an IF, and an IF inside a loop (which keeps its codes).
#include <math.h>

void rot(const double *a, double *b)
{
    double t = a[0] * a[0] + a[1] * a[1];
    if (t > 0.0) {
        b[0] = a[0] * cos(t) - a[1] * sin(t);
        b[1] = a[0] * sin(t) + a[1] * cos(t);
    } else {
        b[0] = a[0];
        b[1] = a[1];
    }
}

void turn(int n, const double *x, double p, double *y)
{
    int i;
    double s = 0.0, u[2], v[2];
    for (i = 0; i < n; i++) {
        if (x[i] > 0.0)
            s = s + x[i] * p;
        else
            s = s - x[i];
    }
    u[0] = x[0] * p;
    u[1] = x[1] + s;
    if (p < 0.0) {
        y[0] = s * s;
    } else if (s > 0.0) {
        rot(u, v);
        y[0] = v[0] * s;
        y[1] = v[1] * p;
        if (n > 2) {
            y[2] = sin(s) * x[2];
            y[3] = y[2] * y[0] + x[3];
        } else {
            y[2] = s;
        }
    } else {
        y[0] = p;
    }
}
