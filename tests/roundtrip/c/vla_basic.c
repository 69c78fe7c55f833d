/* Variable-length arrays and VLA parameters. */
#include <stdio.h>
#include <math.h>

double mean(int n, double a[n])
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += a[i];
    return s / n;
}

double stddev(int n, double a[n])
{
    double m = mean(n, a);
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += (a[i] - m) * (a[i] - m);
    return sqrt(s / n);
}

void outer(int n, int m, double x[n], double y[m], double out[n][m])
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            out[i][j] = x[i] * y[j];
}

double trace(int n, double a[n][n])
{
    double t = 0.0;
    int i;
    for (i = 0; i < n; i++)
        t += a[i][i];
    return t;
}

int main(void)
{
    int sizes[3] = {4, 7, 10};
    int s;

    for (s = 0; s < 3; s++) {
        int n = sizes[s];
        double a[n];
        int i;
        for (i = 0; i < n; i++)
            a[i] = sin(0.3 * i) + 0.1 * i;
        printf("n=%2d mean=%.6f std=%.6f\n", n, mean(n, a), stddev(n, a));
    }

    {
        int n = 3, m = 5;
        double x[n], y[m];
        double o[n][m];
        double sq[n][n];
        int i, j;
        for (i = 0; i < n; i++)
            x[i] = i + 1.0;
        for (j = 0; j < m; j++)
            y[j] = 0.5 * j;
        outer(n, m, x, y, o);
        for (i = 0; i < n; i++) {
            for (j = 0; j < m; j++)
                printf("%6.2f", o[i][j]);
            printf("\n");
        }
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                sq[i][j] = o[i][j] + o[j][i];
        printf("trace = %.3f\n", trace(n, sq));
        printf("sizeof row = %lu\n", (unsigned long)(sizeof o[0] / sizeof(double)));
    }
    return 0;
}
