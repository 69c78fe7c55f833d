// radtap: -head "run(y)/(x)"
// sizes: x=2 y=1
// A static work record with an array member, as solvers keep their scratch between calls
// (issue 47). Its derivative is static too and starts each run of the head at zero: the
// reset assigned each real member a zero (`wd.v = 0.0;`), which does not compile for an
// array member in either mode, nor in vector mode for any member now that the derivative
// record holds the directions at its leaves (`double acc[NBDirsMax]`): the record is
// zeroed whole (`wd = (struct Work_d){0};`).
#include <math.h>

typedef struct {
    double acc;
    double v[2];
    int n;
} Work;

static double step(double x)
{
    static Work w;
    w.acc = x * x;
    w.v[0] = w.acc * x;
    w.v[1] = sin(w.v[0]);
    w.n++;
    return w.v[1] + w.acc;
}

void run(const double *x, double *y)
{
    y[0] = step(x[0]) * step(x[1]);
}
