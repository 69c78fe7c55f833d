/* Function pointers: typedefs, arrays of pointers, callbacks, qsort comparator. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

typedef double (*func1)(double);
typedef int (*binop)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

static double square(double x) { return x * x; }

static double integrate(func1 f, double a, double b, int n)
{
    double h = (b - a) / n;
    double s = 0.5 * (f(a) + f(b));
    int i;
    for (i = 1; i < n; i++)
        s += f(a + i * h);
    return s * h;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa;
    double b = *(const double *)pb;
    return (a > b) - (a < b);
}

static void apply_all(double *v, int n, double (*fn)(double))
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = fn(v[i]);
}

static binop pick(char c)
{
    switch (c) {
    case '+': return add;
    case '-': return sub;
    default: return mul;
    }
}

int main(void)
{
    binop ops[3] = {add, sub, &mul};
    const char *names[3] = {"add", "sub", "mul"};
    func1 fs[4] = {sin, cos, square, sqrt};
    double v[6] = {3.5, -1.0, 2.25, 0.0, 9.0, -4.5};
    int (*raw)(int, int) = add;
    int i;

    for (i = 0; i < 3; i++)
        printf("%s(7, 3) = %d\n", names[i], ops[i](7, 3));
    printf("raw = %d, deref = %d\n", raw(2, 2), (*raw)(5, 6));
    printf("pick('-')(10, 4) = %d\n", pick('-')(10, 4));
    for (i = 0; i < 4; i++)
        printf("integral %d over [0,1] = %.6f\n", i, integrate(fs[i], 0.0, 1.0, 1000));

    qsort(v, 6, sizeof v[0], cmp_double);
    for (i = 0; i < 6; i++)
        printf("%.2f ", v[i]);
    printf("\n");
    apply_all(v, 6, fabs);
    apply_all(v, 6, square);
    for (i = 0; i < 6; i++)
        printf("%.4f ", v[i]);
    printf("\n");
    return 0;
}
