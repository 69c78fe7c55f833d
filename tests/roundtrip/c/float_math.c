/* float arguments and return values, float literals, mixed float/double arithmetic. */
#include <stdio.h>
#include <math.h>

static float lerp(float a, float b, float t)
{
    return a + (b - a) * t;
}

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static void minmax(const float *v, int n, float *mn, float *mx)
{
    int i;
    *mn = *mx = v[0];
    for (i = 1; i < n; i++) {
        if (v[i] < *mn) *mn = v[i];
        if (v[i] > *mx) *mx = v[i];
    }
}

static double mean_f(const float v[], unsigned n)
{
    double s = 0.0;
    unsigned i;
    for (i = 0u; i < n; i++)
        s += v[i];
    return n ? s / n : 0.0;
}

int main(void)
{
    float v[6] = {1.5f, -2.25f, 3.0f, 0.125f, 10.0f, -0.5f};
    float mn, mx;
    float acc = 0.0f;
    double dacc = 0.0;
    int i;

    for (i = 0; i <= 4; i++)
        printf("lerp(0,10,%.2f) = %.3f\n", i / 4.0, (double)lerp(0.0f, 10.0f, i / 4.0f));
    printf("clampf: %.2f %.2f %.2f\n", (double)clampf(-3.0f, 0.0f, 1.0f),
           (double)clampf(0.5f, 0.0f, 1.0f), (double)clampf(7.0f, 0.0f, 1.0f));
    minmax(v, 6, &mn, &mx);
    printf("min=%.3f max=%.3f mean=%.5f\n", (double)mn, (double)mx, mean_f(v, 6u));

    for (i = 0; i < 10; i++) {
        acc += 0.1f;
        dacc += 0.1;
    }
    printf("float sum ~1: %d, double sum ~1: %d\n", fabsf(acc - 1.0f) < 1e-5f, fabs(dacc - 1.0) < 1e-12);
    printf("sqrtf(9)=%.2f powf(2,8)=%.1f\n", (double)sqrtf(9.0f), (double)powf(2.0f, 8.0f));
    printf("float to int: %d %d\n", (int)3.7f, (int)-3.7f);
    printf("1e3f=%.1f 2.5e-1f=%.3f\n", (double)1e3f, (double)2.5e-1f);
    return 0;
}
