/* Typedef names used in casts: (real)x, (real)(p[0]), (real) - y, (real) * p. */
#include <stdio.h>
#include <math.h>

typedef double real;
typedef int index_t;
typedef unsigned long count_t;
typedef real vec4[4];
typedef real (*unary_fn)(real);

static real half(real x)
{
    return x / (real)2;
}

static real apply(unary_fn f, real x)
{
    return f(x);
}

static real sum4(const vec4 v)
{
    return v[0] + v[1] + v[2] + v[3];
}

int main(void)
{
    int ix = 7;
    real y = 2.5;
    real p[3] = {1.25, -3.5, 8.0};
    real *pp = p;
    vec4 v = {1.0, 2.0, 3.0, 4.0};
    index_t i;
    count_t n = (count_t)3;
    real r;

    r = (real)ix;
    printf("(real)ix = %.3f\n", r);
    r = (real)(p[0]);
    printf("(real)(p[0]) = %.3f\n", r);
    r = (real) - y;
    printf("(real) - y = %.3f\n", r);
    r = (real) + y;
    printf("(real) + y = %.3f\n", r);
    r = (real) * pp;
    printf("(real) * pp = %.3f\n", r);
    r = (real)(ix) / (real)2;
    printf("(real)(ix) / (real)2 = %.3f\n", r);
    r = (real)ix / 2;
    printf("(real)ix / 2 = %.3f\n", r);
    r = (real)(ix / 2);
    printf("(real)(ix / 2) = %.3f\n", r);
    r = (real) - (real)ix * y;
    printf("(real) - (real)ix * y = %.3f\n", r);
    r = (real)!ix + (real)~ix;
    printf("(real)!ix + (real)~ix = %.3f\n", r);
    r = (real)(index_t)(y * 3.0);
    printf("(real)(index_t)(y * 3.0) = %.3f\n", r);
    r = (real)sizeof(real) + (real)sizeof(index_t);
    printf("sizes sum = %.1f\n", r);
    r = (real)sizeof (real) - 1;
    printf("(real)sizeof (real) - 1 = %.1f\n", r);
    r = (real)sizeof p[0] - 1;
    printf("(real)sizeof p[0] - 1 = %.1f\n", r);

    for (i = (index_t)0; i < (index_t)n; i++)
        printf("p[%d] as int = %d, floor = %.1f\n", i, (index_t)p[i], floor((real)p[i]));

    printf("half = %.4f apply = %.4f\n", half((real)ix), apply(half, (real)-y));
    printf("apply sqrt = %.4f\n", apply((unary_fn)sqrt, (real)16));
    printf("sum4 = %.2f\n", sum4(v));
    printf("count_t = %lu\n", (count_t)(n * (count_t)1000));
    printf("cast chain = %d\n", (int)(real)(index_t) - 5);
    return 0;
}
