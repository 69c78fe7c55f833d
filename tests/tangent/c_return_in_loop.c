// radtap: -head lookup -vars "x" -outvars "y"
// sizes: x=2 y=1
// Values returned from inside loops, as table lookups and iterations write them: a search
// for loop with statements after the return's IF, a while loop with `continue`, a do-while
// whose return sits in a nested IF and block, a guard before the loop. The adjoint rewrites
// each return into `result = e; returned = 1; break;` and runs what follows the loop only
// when no return did (`il::early_return`).
static const double knots[5] = {0.0, 0.5, 1.0, 1.5, 2.0};

static double interp(double t)
{
    int k;
    double s = 0.0;
    if (t < -10.0)
        return 0.0;
    for (k = 0; k < 4; k++) {
        if (t < knots[k + 1])
            return (k + 1.0) * t * t - k * knots[k] + s;
        s = s + 0.1 * t;
    }
    s = s * t;
    return 5.0 * t + s;
}

static double settle(double a, int n)
{
    int i = 0;
    double v = a;
    while (i < n) {
        i++;
        if (i % 2 == 0)
            continue;
        v = 0.5 * (v + a / v);
        if (v * v - a < 1e-3 && v * v - a > -1e-3)
            return v * (1.0 + 0.01 * i);
    }
    return v + 1.0;
}

static double march(double t)
{
    int k = 0;
    double p = t;
    do {
        p = p * 0.9 + 0.05;
        if (p > 0.0) {
            {
                double q = p * p;
                if (q < 0.2)
                    return q + t;
            }
        }
        k++;
    } while (k < 6);
    return p - t;
}

void lookup(const double *x, double *y)
{
    *y = interp(x[0]) + interp(0.5 * x[0]) + settle(2.0 + x[1] * x[1], 9) + march(x[1])
         + march(0.1 * x[0]);
}
