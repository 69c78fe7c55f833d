// radtap: -head "glob(err)/(t)"
// A helper widens a matrix without reallocating its block (`m->ncols += 1`):
// the records' integer members no longer bound their blocks, so the rotation's
// matrix, rewritten in a loop around a checkpointed call, cannot be recorded by
// `R->nrows * R->ncols` (it would read past the block): refused.
#include <stdlib.h>
#include <math.h>

typedef struct
{
    int nrows;
    int ncols;
    double *data;
} Matrix;

typedef struct
{
    int verts[3];
} Triangle;

Matrix *get_new_matrix(int nrows, int ncols)
{
    Matrix *mat = (Matrix *)malloc(sizeof(Matrix));
    mat->nrows = nrows;
    mat->ncols = ncols;
    mat->data = (double *)malloc(nrows * ncols * sizeof(double));
    return mat;
}

Matrix *get_new_empty_matrix()
{
    Matrix *mat = (Matrix *)malloc(sizeof(Matrix));
    mat->nrows = 0;
    mat->ncols = 0;
    mat->data = NULL;
    return mat;
}

void delete_matrix(Matrix *mat)
{
    if (mat->data != NULL)
    {
        free(mat->data);
    }
    free(mat);
}

Matrix *get_matrix_array(int count)
{
    Matrix *result = (Matrix *)malloc(count * sizeof(Matrix));
    int i;
    for (i = 0; i < count; i++)
    {
        result[i].data = NULL;
        result[i].nrows = result[i].ncols = 0;
    }
    return result;
}

void delete_light_matrix_array(Matrix *matricies, int count)
{
    int i;
    for (i = 0; i < count; i++)
    {
        if (matricies[i].data != NULL)
        {
            free(matricies[i].data);
        }
    }
    free(matricies);
}

void fill(Matrix *mat, double val)
{
    int i;
    for (i = 0; i < mat->ncols * mat->nrows; i++)
    {
        mat->data[i] = val;
    }
}

void copy(Matrix *dst, const Matrix *src)
{
    if (dst->data != NULL)
    {
        free(dst->data);
    }
    dst->ncols = src->ncols;
    dst->nrows = src->nrows;
    dst->data = (double *)malloc(dst->ncols * dst->nrows * sizeof(double));
    int i;
    for (i = 0; i < dst->ncols * dst->nrows; i++)
    {
        dst->data[i] = src->data[i];
    }
}

void rotation(const double *t, Matrix *R)
{
    double c = cos(t[0]), s = sin(t[0]);
    R->data[0 + 0 * R->nrows] = c * t[1];
    R->data[1 + 0 * R->nrows] = s * t[1];
    R->data[2 + 0 * R->nrows] = 0.0;
    R->data[0 + 1 * R->nrows] = -s;
    R->data[1 + 1 * R->nrows] = c;
    R->data[2 + 1 * R->nrows] = 0.0;
    R->data[0 + 2 * R->nrows] = 0.0;
    R->data[1 + 2 * R->nrows] = 0.0;
    R->data[2 + 2 * R->nrows] = 1.0 + t[1] * t[1];
}
void widen(Matrix *m)
{
    m->ncols = m->ncols + 1;
}

void glob(const double *t, double *err)
{
    int i, j;
    Matrix *R = get_new_matrix(3, 3);
    Matrix *bones = get_matrix_array(3);
    for (i = 0; i < 3; i++)
    {
        rotation(t + i, R);
        copy(&bones[i], R);
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            R->data[j + i * R->nrows] *= t[i];
    for (i = 0; i < 9; i++)
        err[i] = R->data[i] * bones[i % 3].data[i];
    delete_matrix(R);
    delete_light_matrix_array(bones, 3);
    Matrix *w = get_new_matrix(1, 1);
    widen(w);
    delete_matrix(w);
}
