// radtap: -head "mat_norm(y)/(x)"
// A helper with nothing active in it sets the pointer member of a struct the
// head declares (alloc_matrix), another frees it: the tangent called them as
// they are and the derivative record's data was never allocated (crash); the
// adjoint read freed memory.
#include <stdlib.h>
#include <math.h>

typedef struct {
    int rows, cols;
    double *data;
} Matrix;

static void alloc_matrix(Matrix *m, int r, int c)
{
    m->rows = r;
    m->cols = c;
    m->data = (double *)malloc(r * c * sizeof(double));
}

static void free_matrix(Matrix *m)
{
    free(m->data);
}

static void fill(Matrix *m, const double *x)
{
    int i;
    for (i = 0; i < m->rows * m->cols; i++)
        m->data[i] = sin(x[i]) * x[i];
}

void mat_norm(int r, int c, const double *x, double *y)
{
    int i;
    Matrix m;
    alloc_matrix(&m, r, c);
    fill(&m, x);
    y[0] = 0.0;
    for (i = 0; i < r * c; i++)
        y[0] += m.data[i] * m.data[i];
    free_matrix(&m);
}
