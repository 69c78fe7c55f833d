/* Object-like and function-like macros, stringization-free, used in expressions. */
#include <stdio.h>
#include <math.h>

#define N 10
#define M (N * 2)
#define EPS 1e-9
#define SQ(x) ((x)*(x))
#define CUBE(x) ((x)*(x)*(x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CLAMP(x, lo, hi) (MIN(MAX((x), (lo)), (hi)))
#define ABS(x) ((x) < 0 ? -(x) : (x))
#define IDX(i, j, ncol) ((i) * (ncol) + (j))
#define GREETING "macro string"

static double table[M];

int main(void)
{
    int i, j;
    double sum = 0.0;
    int grid[3 * 4];

    for (i = 0; i < M; i++)
        table[i] = SQ((double)i) / M;
    for (i = 0; i < N; i++)
        sum += table[i];
    printf("sum of first N = %.4f\n", sum);
    printf("SQ(3+1) = %d\n", SQ(3 + 1));
    printf("CUBE(-2) = %d\n", CUBE(-2));
    printf("MAX(4, 9) = %d, MIN(4.5, -1.0) = %.1f\n", MAX(4, 9), MIN(4.5, -1.0));
    printf("CLAMP: %d %d %d\n", CLAMP(-5, 0, 10), CLAMP(5, 0, 10), CLAMP(50, 0, 10));
    printf("ABS(-7) = %d, ABS(2.5) = %.1f\n", ABS(-7), ABS(2.5));

    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            grid[IDX(i, j, 4)] = i * 10 + j;
    printf("grid[IDX(2,3,4)] = %d\n", grid[IDX(2, 3, 4)]);

    if (fabs(sqrt(SQ(1.5)) - 1.5) < EPS)
        printf("sqrt(SQ(1.5)) ok\n");
    printf("%s, N=%d, M=%d\n", GREETING, N, M);
    return 0;
}
