// radtap: -head matvec3 -vars "a v" -outvars "r q"
// sizes:
// Fixed-size array arguments double a[3][3], v[3], r[3], q[4]: matrix-vector
// product with nested for loops, then a^T (a v) and a quadratic form.
void matvec3(double a[3][3], const double v[3], double r[3], double q[4])
{
    int i, j;
    double t[3];
    for (i = 0; i < 3; i++) {
        t[i] = 0.0;
        for (j = 0; j < 3; j++)
            t[i] = t[i] + a[i][j] * v[j];
    }
    for (j = 0; j < 3; j++) {
        r[j] = 0.0;
        for (i = 0; i < 3; i++)
            r[j] += a[i][j] * t[i];
    }
    q[3] = 0.0;
    for (i = 0; i < 3; i++) {
        q[i] = t[i] * v[i];
        q[3] += t[i] * t[i];
    }
}
