// radtap: -head "chain_objective(err)/(theta)"
// sizes: nb=3 theta=2*nb err=4*nb
// Arrays of records owning heap memory, allocated, resized and freed in
// helpers (ADBench's hand tracker, adjoint): get_matrix_array leaves every
// member NULL; helpers resize the members (resize frees and mallocs `data`,
// in branches, through a pointer argument), one of them growing a matrix whose
// old values its new ones are computed from (the free waits for the backward
// sweep, which finds the old block again); a local matrix resized twice; the
// array freed by delete_light_matrix_array, member by member in a loop.
#include <stdlib.h>
#include <math.h>

typedef struct
{
    int nrows;
    int ncols;
    double *data;
} Matrix;

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

// A 2 x 1 matrix from two parameters.
void make_pair(const double *t, Matrix *out)
{
    resize(out, 2, 1);
    out->data[0] = t[0] * t[0];
    out->data[1] = sin(t[1]);
}

// Grows a 2 x 1 matrix into 2 x 2, the new values computed from the old ones
// (read after resize freed their block: here from copies taken before).
void grow(Matrix *m)
{
    double a = m->data[0], b = m->data[1];
    resize(m, 2, 2);
    m->data[0] = a * b;
    m->data[1] = a + b * b;
    m->data[2] = cos(a);
    m->data[3] = a * a * b;
}

void chain_objective(int nb, const double *theta, double *err)
{
    int i, j;
    Matrix *bones = get_matrix_array(nb);
    for (i = 0; i < nb; i++)
    {
        make_pair(&theta[2 * i], &bones[i]);
    }
    for (i = 0; i < nb; i++)
    {
        grow(&bones[i]);
    }
    // A local matrix sized, filled, then sized again (freed and allocated anew).
    Matrix *acc = get_new_empty_matrix();
    resize(acc, 1, 1);
    acc->data[0] = theta[0];
    resize(acc, 4, 1);
    for (j = 0; j < 4; j++)
    {
        acc->data[j] = 0.0;
    }
    for (i = 0; i < nb; i++)
    {
        for (j = 0; j < 4; j++)
        {
            acc->data[j] += bones[i].data[j] * bones[i].data[3 - j];
            err[4 * i + j] = acc->data[j] * bones[i].data[j];
        }
    }
    delete_matrix(acc);
    delete_light_matrix_array(bones, nb);
}
