/* const double *restrict parameters and simple BLAS-like kernels. */
#include <stdio.h>
#include <math.h>

#define LEN 8

static double dot(int n, const double *restrict x, const double *restrict y)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static void axpy(int n, double alpha, const double *restrict x, double *restrict y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] += alpha * x[i];
}

static double norm2(int n, const double *restrict x)
{
    return sqrt(dot(n, x, x));
}

static void scale_copy(int n, double s, const double *restrict src, double *restrict dst)
{
    const double *p = src;
    double *q = dst;
    while (p < src + n) {
        *q++ = s * *p++;
    }
}

int main(void)
{
    double x[LEN], y[LEN], z[LEN];
    int i;

    for (i = 0; i < LEN; i++) {
        x[i] = (double)(i + 1);
        y[i] = 1.0 / (double)(i + 1);
    }

    printf("dot(x,y) = %.6f\n", dot(LEN, x, y));
    printf("norm2(x) = %.6f\n", norm2(LEN, x));

    axpy(LEN, 0.5, x, y);
    for (i = 0; i < LEN; i++)
        printf("y[%d] = %.6f\n", i, y[i]);

    scale_copy(LEN, -2.0, y, z);
    printf("z[0] = %.6f z[%d] = %.6f\n", z[0], LEN - 1, z[LEN - 1]);
    printf("norm2(z) = %.6f\n", norm2(LEN, z));
    return 0;
}
