/* Two-dimensional arrays: matrix products, transposes and row sums. */
#include <stdio.h>

#define R 3
#define C 4

static const double ident3[3][3] = {
    {1.0, 0.0, 0.0},
    {0.0, 1.0, 0.0},
    {0.0, 0.0, 1.0}
};

void fill(double m[3][4])
{
    int i, j;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            m[i][j] = (double)(i * C + j) * 0.5;
}

void transpose(double m[3][4], double t[4][3])
{
    int i, j;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            t[j][i] = m[i][j];
}

void matmul(double a[3][4], double b[4][3], double c[3][3])
{
    int i, j, k;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            double s = 0.0;
            for (k = 0; k < 4; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    }
}

void print3(const char *name, double m[3][3])
{
    int i;
    printf("%s:\n", name);
    for (i = 0; i < 3; i++)
        printf("  %8.3f %8.3f %8.3f\n", m[i][0], m[i][1], m[i][2]);
}

int main(void)
{
    double m[3][4];
    double t[4][3];
    double p[3][3];
    double q[3][3];
    int i, j;

    fill(m);
    transpose(m, t);
    matmul(m, t, p);
    print3("m * m^T", p);

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            q[i][j] = p[i][j] + 10.0 * ident3[i][j];
    print3("p + 10 I", q);

    for (i = 0; i < R; i++) {
        double row = 0.0;
        for (j = 0; j < C; j++)
            row += m[i][j];
        printf("row %d sum = %.2f\n", i, row);
    }
    printf("t[3][2] = %.2f\n", t[3][2]);
    return 0;
}
