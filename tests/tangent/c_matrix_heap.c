// radtap: -head "matrix_energy(e)/(x)"
// sizes: r=3 c=4 x=r*c e=1
// A typedef'd struct owning heap memory (Matrix, from the header next to the
// source): the head allocates its data (m.data = malloc(...)), helpers fill
// and read it through Matrix *, and the head frees it. The derivative record
// Matrix_d holds a twin of data, allocated and freed with it (one block per
// direction in vector mode). In adjoint mode the shadow block is calloc'ed with
// the primal's and both are freed after the backward sweep.
#include <stdlib.h>
#include <math.h>
#include "c_matrix_heap.h"

void mat_fill(Matrix *m, const double *x)
{
    int i, j;
    for (i = 0; i < m->rows; i++)
        for (j = 0; j < m->cols; j++)
            m->data[i * m->cols + j] = sin(x[i * m->cols + j]) * (x[j] + 1.0);
}

double mat_energy(const Matrix *m)
{
    int i;
    double s = 0.0;
    for (i = 0; i < m->rows * m->cols; i++)
        s += (m->data[i]) * m->data[i] + exp(-(m->data[i]));
    return s;
}

void matrix_energy(int r, int c, const double *x, double *e)
{
    Matrix m;
    m.rows = r;
    m.cols = c;
    m.data = (double *)malloc(r * c * sizeof(double));
    mat_fill(&m, x);
    e[0] = mat_energy(&m) / (r * c);
    free(m.data);
}
