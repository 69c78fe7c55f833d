// radtap: -head "stats_objective(f)/(x)" -size w=n
// sizes: n=7 x=n w=n f=1
// Whole-struct copies in the adjoint (`*mo = m;`, `s.lo = m;`, `Split t = s;` with nested
// structs from the header): member by member over the active real members. Also arrays
// walked by pointers in the head (`double v = *p++;`, `*q++ = ...;`), `switch`,
// `do ... while`, `fmax`, `erf`, `hypot`, `pow` with an integer exponent.
#include <math.h>
#include "c_stats_records.h"

static double soft(double v)
{
    double r = v > 1.0 ? v - 0.5 * (v - 1.0) * (v - 1.0) : v;
    return r * r;
}

static void moments(int n, const double *w, Moments *mo)
{
    Moments m = {0.0, 0.0, 0};
    int i = 0;
    do {
        m.a += w[i];
        m.b += w[i] * w[i];
        m.count++;
        i++;
    } while (i < n);
    *mo = m;
}

void stats_objective(int n, const double *x, double scale, double *w, double *f)
{
    Split s;
    Moments m;
    const double *p = x;
    double *q = w;
    for (int i = 0; i < n; i++) {
        double v = *p++;
        *q++ = sin(v) * hypot(v, 1.0);
    }
    moments(n, w, &m);
    s.lo = m;
    moments(n / 2, w + 1, &m);
    s.hi = m;
    s.weight = x[0] * x[1];
    Split t = s;
    double acc = 0.0;
    for (int i = 0; i < n; i++) {
        switch (i % 3) {
        case 0:
            acc += soft(w[i]);
            break;
        case 1:
            acc += fmax(w[i], 0.3) * pow(x[i], 3);
            break;
        default:
            acc -= erf(*(x + i)) / (1.0 + t.lo.b);
        }
        if (acc > 1.0e6)
            break;
        w[i] *= scale;
    }
    *f = acc + t.lo.a * t.hi.a + t.weight * t.hi.b / t.lo.count + w[0];
}
