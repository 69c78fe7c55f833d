// radtap: -head stats -vars "x" -outvars "y"
// sizes: n=4 x=4 y=1
// A function returning a struct by value with real members (the derivative's result
// temporaries and return type would be scalars: the output did not compile).
typedef struct {
    double a, b;
} Pair;

static Pair moments(int n, const double *w)
{
    Pair m = {0.0, 0.0};
    for (int i = 0; i < n; i++) {
        m.a += w[i];
        m.b += w[i] * w[i];
    }
    return m;
}

void stats(int n, const double *x, double *y)
{
    Pair m = moments(n, x);
    *y = m.b - m.a * m.a / n;
}
