// radtap: -head a2d -vars "x" -outvars "y"
// sizes: x=12 y=3
// 2-D arrays double a[3][4]: a local filled from x, a row-sum, and a 2-D
// argument indexed with both subscripts.
void a2d(const double x[12], double y[3])
{
    double a[3][4];
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            a[i][j] = x[4 * i + j] * (1.0 + 0.1 * j);
    for (i = 0; i < 3; i++) {
        y[i] = 0.0;
        for (j = 0; j < 4; j++)
            y[i] += a[i][j] * a[(i + 1) % 3][3 - j];
    }
}
