/* One-dimensional arrays, global arrays with initializers, const globals. */
#include <stdio.h>

#define N 10

const double weights[N] = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0};
int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
const int count = N;
static double history[N];

double weighted_sum(double a[10])
{
    double s = 0.0;
    int i;
    for (i = 0; i < N; i++)
        s += weights[i] * a[i];
    return s;
}

void reverse(double a[], int n)
{
    int i, j;
    for (i = 0, j = n - 1; i < j; i++, j--) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

double max_of(const double a[], int n)
{
    double m = a[0];
    int i;
    for (i = 1; i < n; i++)
        if (a[i] > m)
            m = a[i];
    return m;
}

int main(void)
{
    double a[10];
    int i;
    int sum = 0;

    for (i = 0; i < N; i++)
        a[i] = (double)primes[i] / 2.0;

    printf("weighted sum: %.3f\n", weighted_sum(a));
    reverse(a, N);
    for (i = 0; i < N; i++)
        printf("%.1f%s", a[i], i + 1 < N ? " " : "\n");
    printf("max: %.2f\n", max_of(a, N));

    for (i = 0; i < count; i++) {
        history[i] = i > 0 ? history[i - 1] + a[i] : a[i];
        sum += primes[i];
    }
    printf("prefix last: %.2f\n", history[N - 1]);
    printf("sum of primes: %d\n", sum);
    printf("elements: %d\n", (int)(sizeof primes / sizeof primes[0]));
    return 0;
}
