/* Dynamic memory: malloc, calloc, realloc and free with sizeof. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int n;
    double *vals;
} Series;

static Series *series_new(int n)
{
    Series *s = malloc(sizeof(Series));
    if (s == NULL)
        return NULL;
    s->n = n;
    s->vals = calloc((size_t)n, sizeof *s->vals);
    if (s->vals == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

static void series_free(Series *s)
{
    if (s) {
        free(s->vals);
        free(s);
    }
}

static double **matrix_new(int rows, int cols)
{
    double **m = (double **)malloc(rows * sizeof(double *));
    int i;
    for (i = 0; i < rows; i++)
        m[i] = (double *)calloc(cols, sizeof(double));
    return m;
}

static void matrix_free(double **m, int rows)
{
    int i;
    for (i = 0; i < rows; i++)
        free(m[i]);
    free(m);
}

int main(void)
{
    Series *s = series_new(6);
    double **m;
    int *grow;
    int i, j, cap = 2, used = 0;

    if (!s)
        return 1;
    for (i = 0; i < s->n; i++)
        s->vals[i] = i * 1.5;
    printf("series: ");
    for (i = 0; i < s->n; i++)
        printf("%.1f ", s->vals[i]);
    printf("\n");
    series_free(s);

    m = matrix_new(3, 3);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            m[i][j] = (i == j) ? 1.0 : (double)(i - j);
    for (i = 0; i < 3; i++)
        printf("%5.1f %5.1f %5.1f\n", m[i][0], m[i][1], m[i][2]);
    matrix_free(m, 3);

    grow = malloc(cap * sizeof(int));
    for (i = 0; i < 20; i++) {
        if (used == cap) {
            int *tmp;
            cap *= 2;
            tmp = realloc(grow, cap * sizeof *grow);
            if (!tmp) {
                free(grow);
                return 1;
            }
            grow = tmp;
        }
        grow[used++] = i * i;
    }
    printf("used=%d cap=%d last=%d\n", used, cap, grow[used - 1]);
    free(grow);
    return 0;
}
