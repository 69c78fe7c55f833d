/* Scalar arguments of many types, by value and through pointers. */
#include <stdio.h>

double scale_double(double x, double factor);
float scale_float(float x, float factor);
int add_int(int a, int b);
long mul_long(long a, long b);
unsigned mix_unsigned(unsigned a, unsigned b);
void swap_double(double *a, double *b);
void accumulate(int *total, int v);
void split(double x, long *whole, double *frac);

double scale_double(double x, double factor)
{
    return x * factor;
}

float scale_float(float x, float factor)
{
    return x * factor;
}

int add_int(int a, int b)
{
    return a + b;
}

long mul_long(long a, long b)
{
    return a * b;
}

unsigned mix_unsigned(unsigned a, unsigned b)
{
    return (a ^ b) + (a & b);
}

void swap_double(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

void accumulate(int *total, int v)
{
    *total += v;
}

void split(double x, long *whole, double *frac)
{
    *whole = (long)x;
    *frac = x - (double)*whole;
}

static double mixed(int i, long l, float f, double d, unsigned u)
{
    return i + l + f + d + u;
}

int main(void)
{
    double x = 1.5, y = -2.25;
    float f = scale_float(2.5f, 4.0f);
    int total = 0;
    long w;
    double fr;
    int k;

    printf("scale_double: %.4f\n", scale_double(x, 3.0));
    printf("scale_float: %.4f\n", (double)f);
    printf("add_int: %d\n", add_int(-7, 12));
    printf("mul_long: %ld\n", mul_long(123456L, 1000L));
    printf("mix_unsigned: %u\n", mix_unsigned(0xF0u, 0x3Cu));

    swap_double(&x, &y);
    printf("after swap: x=%.3f y=%.3f\n", x, y);

    for (k = 1; k <= 10; k++)
        accumulate(&total, k * k);
    printf("sum of squares: %d\n", total);

    split(12.375, &w, &fr);
    printf("split: whole=%ld frac=%.3f\n", w, fr);

    printf("mixed: %.3f\n", mixed(-3, 40L, 0.5f, 1.25, 7u));
    return 0;
}
