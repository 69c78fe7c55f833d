// radtap: -head "filter(y)/(x)"
// sizes: x=4 y=4
// Helpers called once with active data and once with constant data (a fixed gain matrix, a
// default parameter record), as filters and solvers do. The constant actual's derivative is
// a zero temporary: arrays and records were declared without a value, so what the stack held
// (left by `warm`) entered the tangent.
typedef struct {
    double a;
    double b;
} Affine;

static double warm(void)
{
    double w[64];
    double s = 0.0;
    int i;
    for (i = 0; i < 64; i++)
        w[i] = 1.0e6 + i;
    for (i = 0; i < 64; i++)
        s += w[i];
    return s / (64.0 * 1.0e6);
}

static void mul(const double A[4], const double B[4], double C[4])
{
    int i;
    for (i = 0; i < 4; i++)
        C[i] = A[i] * B[i];
}

static void apply(const Affine *m, const double *x, double *y)
{
    *y += m->a * *x + m->b;
}

static void stage(const double X[4], double Z[4])
{
    double G[4] = {1.0, 2.0, 3.0, 4.0};
    double Y[4];
    Affine fixed, fitted;
    int i;
    mul(X, X, Y);
    mul(G, Y, Z);
    fixed.a = 2.0;
    fixed.b = 1.0;
    fitted.a = X[0] * X[1];
    fitted.b = X[2];
    for (i = 0; i < 4; i++) {
        apply(&fitted, &X[i], &Z[i]);
        apply(&fixed, &Y[i], &Z[i]);
    }
}

void filter(const double *x, double *y)
{
    double X[4], Z[4];
    double s = warm();
    int i;
    for (i = 0; i < 4; i++)
        X[i] = s * x[i];
    stage(X, Z);
    for (i = 0; i < 4; i++)
        y[i] = Z[i];
}
