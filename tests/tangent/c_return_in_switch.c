// radtap: -head "network(y)/(w x)"
// sizes: n=8 w=n x=n y=n
// Values returned from inside a `switch`, as activation and limiter selectors are written:
// every case returning (cases sharing a body, a ternary, `default:` last), and a switch
// whose cases return, break or fall through, with code after it. Each return becomes
// `result = e; break;` (with a flag guarding what follows when some case breaks).
#include <math.h>

static double activation(int kind, double x)
{
    switch (kind) {
    case 0:
        return tanh(x);
    case 1:
    case 4:
        return x > 0.0 ? x : 0.01 * x;
    case 2:
        return 1.0 / (1.0 + exp(-x));
    default:
        return x;
    }
}

static double limiter(int kind, double r, double s)
{
    double phi = 0.0;
    switch (kind % 3) {
    case 0:
        if (r <= 0.0)
            return 0.0;
        phi = r * s / (1.0 + r * r);
        break;
    case 1:
        return sin(r) * s;
    default:
        phi = r;
        phi = phi + 0.5 * s;
    }
    return phi * phi + s;
}

void network(int n, const double *w, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        double a = activation(i % 5, w[i] * x[i] + 0.1);
        y[i] = limiter(i, a - 0.2 * (i % 2), x[i]);
    }
}
