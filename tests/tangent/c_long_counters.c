// radtap: -head lsweep -vars "x c" -outvars "y"
// sizes: n=6 x=n y=1
// `long` counters and a `long` index array that the adjoint records (the inner counter `k`
// and the state `m` of a linear congruential sequence are overwritten in a loop, `perm` is
// refilled each sweep): the runtime's 8-byte integer routines take `long long *`, and the
// generated `popInteger8(&k)` passed a `long *`, which gcc 14 refuses
// (-Werror=incompatible-pointer-types in the suites' C flags); now `(long long *)&k`. The
// `short` state `q` was popped by popInteger4(&q), 4 bytes into 2; now popInteger2.
#include <math.h>

void lsweep(long n, const double *x, double c, double *y)
{
    long i, k, m;
    long perm[8];
    unsigned long u;
    short q;
    double s = 0.0;
    m = 1;
    u = 3;
    q = 2;
    for (i = 0; i < 3; i++) {
        for (k = 0; k < n && k < 8; k++)
            perm[k] = (k * m + i) % n;
        for (k = 0; k < n && k < 8; k++) {
            s = s * cos(c * x[perm[k]]) + x[k] * (double)(m % 5 + 1);
            m = (m * 7 + 3) % 11;
            u = u * 5 % 13;
            s = s + 0.1 * sin(s) * (double)u;
            q = (short)((q * 3 + 1) % 17);
            s = s + 0.05 * cos(s) * (double)q;
        }
    }
    *y = s;
}
