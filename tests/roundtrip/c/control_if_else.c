/* if / else if / else chains, nested conditionals, dangling else. */
#include <stdio.h>
#include <math.h>

static const char *classify(double x)
{
    if (x != x)
        return "nan";
    else if (x < -100.0)
        return "very negative";
    else if (x < 0.0)
        return "negative";
    else if (x == 0.0)
        return "zero";
    else if (x <= 1.0)
        return "unit";
    else
        return "large";
}

static int sign(int v)
{
    if (v > 0) {
        return 1;
    } else if (v < 0) {
        return -1;
    }
    return 0;
}

static int quadrant(double x, double y)
{
    int q;
    if (x >= 0)
        if (y >= 0)
            q = 1;
        else
            q = 4;
    else {
        if (y >= 0)
            q = 2;
        else
            q = 3;
    }
    return q;
}

static double safe_log(double x)
{
    if (!(x > 0.0))
        return -1.0;
    return log(x);
}

int main(void)
{
    double xs[7] = {-250.0, -3.5, 0.0, 0.25, 1.0, 42.0, 7.0};
    int i;
    int a = 5, b = 9;

    for (i = 0; i < 7; i++)
        printf("%8.2f -> %s\n", xs[i], classify(xs[i]));
    printf("sign: %d %d %d\n", sign(-12), sign(0), sign(8));
    printf("quadrants: %d %d %d %d\n", quadrant(1, 1), quadrant(-1, 1), quadrant(-1, -1), quadrant(1, -1));
    printf("safe_log(e^2)=%.4f safe_log(-1)=%.1f\n", safe_log(exp(2.0)), safe_log(-1.0));

    if (a > 3 && b > 3)
        printf("both > 3\n");
    if (a > 6 || b > 6)
        printf("one > 6\n");
    if (!(a == b))
        printf("a != b\n");
    if (a & 1) {
        if (b & 1)
            printf("both odd\n");
    } else
        printf("a even\n");
    if (a) ;
    else
        printf("unreachable\n");
    return 0;
}
