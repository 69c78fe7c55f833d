// radtap: -head dead_calls -vars "x" -outvars "y"
// sizes: n=4 x=n y=2
// Statements whose values no derivative needs (the adjoint computes no primal output): a
// reference to a function without side effects goes with them (`norm2`, `lse` through
// `amax`: the loop that sums them is dropped whole); one to a function that bumps a static
// counter, writes a global or an argument must stay, because a later statement reads what
// it changed (`counted` returns 2*a on its second call in each call of the head, `last` is
// set by `remember`, `w[0]` doubled by `bump`).
#include <math.h>

static int calls;
double last;
double acc;

double amax(int n, const double *x)
{
    int i;
    double m = x[0];
    for (i = 1; i < n; i++)
        if (m < x[i])
            m = x[i];
    return m;
}

double lse(int n, const double *x)
{
    int i;
    double m = amax(n, x), s = 0.0;
    for (i = 0; i < n; i++)
        s += exp(x[i] - m);
    return log(s) + m;
}

double norm2(int n, const double *x)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s = s + x[i] * x[i];
    return sqrt(s);
}

double counted(double a)
{
    static int k = 0;
    k = k % 2;
    k++;
    return a * k;
}

double remember(double a)
{
    last = a * a;
    return a;
}

double bump(double *a)
{
    a[0] = a[0] * 2.0;
    return a[0];
}

void dead_calls(int n, const double *x, double *y)
{
    double t, u, v, w[2];
    int i;
    v = 0.0;
    for (i = 0; i < 3; i++)
        v = v + lse(n, x) + norm2(n, x);
    u = counted(1.5);
    u = remember(0.5) + u;
    w[0] = 2.0;
    w[1] = 3.0;
    u = bump(w) + u;
    acc = acc + v + u;
    t = counted(0.25);
    y[0] = lse(n, x) * x[1] + x[2] * w[0] * t;
    y[1] = last * x[0] + norm2(n, x);
    calls = calls + 1;
}
