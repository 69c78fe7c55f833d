// radtap: -head "chain(err)/(theta)"
// mat_mult(&a[i - 1], &b[i], &a[i]) on records the head's caller hands over:
// nothing in the program says two of them do not share a block (the caller may
// have built them so), so the run-time check that the subscripts differ would
// not be enough: refused as arguments that may share memory.
#include <stdlib.h>
#include <math.h>

typedef struct
{
    int nrows;
    int ncols;
    double *data;
} Matrix;

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

void resize(Matrix *mat, int nrows, int ncols)
{
    if (mat->nrows * mat->ncols != nrows * ncols)
    {
        if (mat->data != NULL)
        {
            free(mat->data);
        }
        if (nrows * ncols > 0)
        {
            mat->data = (double *)malloc(ncols * nrows * sizeof(double));
        }
        else
        {
            mat->data = NULL;
        }
    }
    mat->ncols = ncols;
    mat->nrows = nrows;
}

void mat_mult(const Matrix *lhs, const Matrix *rhs, Matrix *out)
{
    int i, j, k;
    resize(out, lhs->nrows, rhs->ncols);
    for (i = 0; i < lhs->nrows; i++)
    {
        for (k = 0; k < rhs->ncols; k++)
        {
            out->data[i + k * out->nrows] = lhs->data[i + 0 * lhs->nrows] * rhs->data[0 + k * rhs->nrows];
            for (j = 1; j < lhs->ncols; j++)
            {
                out->data[i + k * out->nrows] += lhs->data[i + j * lhs->nrows] * rhs->data[j + k * rhs->nrows];
            }
        }
    }
}

void set_identity(Matrix *mat)
{
    int r, c;
    for (c = 0; c < mat->ncols; c++)
    {
        for (r = 0; r < mat->nrows; r++)
        {
            mat->data[r + c * mat->nrows] = (r == c) ? 1.0 : 0.0;
        }
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

void chain(int n, Matrix *a, Matrix *b, const double *theta, double *err)
{
    int i, j;
    for (i = 0; i < n; i++)
    {
        for (j = 0; j < b[i].nrows * b[i].ncols; j++)
        {
            b[i].data[j] = theta[j % 3] * (i + 1);
        }
    }
    copy(&a[0], &b[0]);
    for (i = 1; i < n; i++)
    {
        mat_mult(&a[i - 1], &b[i], &a[i]);
    }
    for (j = 0; j < 9; j++)
    {
        err[j] = a[n - 1].data[j];
    }
}
