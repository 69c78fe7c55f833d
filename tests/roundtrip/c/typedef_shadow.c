/* A typedef name shadowed by an ordinary identifier in an inner scope:
   the same token sequence is a cast in one scope and arithmetic in another. */
#include <stdio.h>

typedef double real;
typedef int T;

static real twice(real x)
{
    return (real)2 * x;
}

int main(void)
{
    real y = 1.5;
    real a, b;

    a = (real) - y;
    printf("outer (real) - y = %.3f\n", a);
    a = (real)(y) * 4;
    printf("outer (real)(y) * 4 = %.3f\n", a);
    {
        double real = 10.0;
        b = (real) - y;
        printf("inner (real) - y = %.3f\n", b);
        b = (real) * 2;
        printf("inner (real) * 2 = %.3f\n", b);
        b = (real) + (real);
        printf("inner (real) + (real) = %.3f\n", b);
    }
    a = (real) + y;
    printf("outer again (real) + y = %.3f\n", a);
    {
        int T = 6;
        int q = (T) - 1;
        int w = T * 2;
        printf("inner T: q=%d w=%d\n", q, w);
    }
    {
        T x = 3;
        T *px = &x;
        int z = (T) * px;
        printf("outer T cast of deref: %d\n", z);
    }
    printf("twice = %.3f\n", twice((real)-y));
    return 0;
}
