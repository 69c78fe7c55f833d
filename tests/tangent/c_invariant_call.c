// radtap: -head "normalize(out s)/(in w)"
// sizes: n=6 in=n out=n w=n
// Loop-invariant calls of pure functions leave their loop before differentiation (issue 47):
// `mag(in, n)` in the first loop is called once, its adjoint once (it was n times each: an
// O(n^2) gradient); the second loop writes `w` through a pointer that is not `restrict`, so
// `mag(w, n)` stays where it is; the third calls `dotw` with its own counter (not invariant).
#include <math.h>

double mag(const double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

double dotw(const double *v, int k) {
    return v[k] * (1.0 + 0.1 * k);
}

void normalize(double *restrict out, const double *restrict in, double *w, int n, double *s) {
    for (int i = 0; i < n; i++)
        out[i] = in[i] / mag(in, n) + 0.5 * in[i] * mag(in, n);
    for (int i = 0; i < n; i++)
        w[i] = w[i] + 0.1 * mag(w, n);
    *s = 0.0;
    for (int i = 0; i < n; i++)
        *s = *s + dotw(w, i) * mag(in, n);
}
