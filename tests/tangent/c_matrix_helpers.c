// radtap: -head "mat_objective(err)/(x)"
// sizes: r=3 c=4 x=r*c err=1
// ADBench-style helpers on Matrix * (typedef and prototypes in the header next
// to the source): get_new_matrix mallocs the struct and its data and returns it,
// delete_matrix frees both, get_new_vector returns a malloc'd double *. The
// derivatives of the allocators return the shadow too (get_new_matrix_d(r, c,
// &md)), the deallocator's frees both; the adjoint frees them after the
// backward sweep has used them.
#include <stdlib.h>
#include <math.h>
#include "c_matrix_helpers.h"

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

double *get_new_vector(int n)
{
    double *v = (double *)malloc(n * sizeof(double));
    return v;
}

void mat_set(Matrix *m, const double *x)
{
    int i;
    for (i = 0; i < m->rows * m->cols; i++)
        m->data[i] = x[i] * cos(x[i]);
}

void mat_mul_vec(const Matrix *a, const double *v, double *out)
{
    int i, j;
    for (i = 0; i < a->rows; i++) {
        out[i] = 0.0;
        for (j = 0; j < a->cols; j++)
            out[i] += a->data[i * a->cols + j] * v[j];
    }
}

double sq_norm(int n, const double *v)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++)
        s += v[i] * v[i];
    return s;
}

void mat_objective(int r, int c, const double *x, double *err)
{
    int j;
    Matrix *m = get_new_matrix(r, c);
    double *v = get_new_vector(c);
    double *out = get_new_vector(r);
    mat_set(m, x);
    for (j = 0; j < c; j++)
        v[j] = exp(-(x[j]));
    mat_mul_vec(m, v, out);
    err[0] = sqrt(sq_norm(r, out) + 1.0);
    free(out);
    free(v);
    delete_matrix(m);
}
