// radtap: -head "mat_sum(y)/(x)"
// sizes: r=2 c=3 x=r*c y=1
// A struct owning heap memory allocated by a helper with nothing active in it
// (get_new_matrix mallocs the struct and its data): the derivative record's data
// is allocated beside it with the allocator's sizes (it used to be left
// unallocated: the tangent crashed in fill_d; then it was refused).
#include <stdlib.h>
#include <math.h>
#include "e_c_matrix_helpers.h"

Matrix *get_new_matrix(int r, int c)
{
    Matrix *m = (Matrix *)malloc(sizeof(Matrix));
    m->rows = r;
    m->cols = c;
    m->data = (double *)malloc(r * c * sizeof(double));
    return m;
}

void delete_matrix(Matrix *m)
{
    free(m->data);
    free(m);
}

static void fill(Matrix *m, const double *x)
{
    int i;
    for (i = 0; i < m->rows * m->cols; i++)
        m->data[i] = sin(x[i]) * x[i];
}

void mat_sum(int r, int c, const double *x, double *y)
{
    int i;
    Matrix *m = get_new_matrix(r, c);
    fill(m, x);
    y[0] = 0.0;
    for (i = 0; i < r * c; i++)
        y[0] += m->data[i] * m->data[i];
    delete_matrix(m);
}
