// radtap: -head "skin_objective(err)/(theta us)"
// sizes: nb=3 nv=4 nc=3 theta=2*nb us=2*nc err=3*nc
// ADBench hand tracker's matrix idioms (hand.c): records owning heap memory
// made by allocators that leave the data NULL (get_new_empty_matrix), arrays
// of such records (get_matrix_array), resize/copy that free and malloc the
// data, deallocators guarded by NULL tests (delete_matrix) and one freeing the
// members of an array of records in a loop (delete_light_matrix_array). The
// derivative mirrors each on the shadow records: zeroed shadow blocks (NULL
// twins, zero derivatives), twins freed in the same loop. A record without a
// derivative passed to mat_mult, whose derivative takes one (a zero record).
// A piece of a record's block passed to a procedure (`pose->data + i * nrows`:
// copied into rows of directions in vector mode). The barycentric step reads a
// triangle's int array through a pointer and `&us[2 * c]`.
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

void skin_objective(int nb, int nv, int nc, const double *theta, const double *us, double *err)
{
    int i, j, k;
    Matrix *pose = get_new_empty_matrix();
    resize(pose, 2, nb);
    for (i = 0; i < nb; i++)
    {
        pose->data[0 + i * pose->nrows] = theta[2 * i];
        pose->data[1 + i * pose->nrows] = theta[2 * i + 1];
    }
    Matrix *bones = get_matrix_array(nb);
    Matrix *absolutes = get_matrix_array(nb);
    Matrix *R = get_new_matrix(3, 3);
    for (i = 0; i < nb; i++)
    {
        rotation(pose->data + i * pose->nrows, R);
        copy(&bones[i], R);
        if (i == 0)
        {
            copy(&absolutes[0], &bones[0]);
        }
        else
        {
            mat_mult(&absolutes[i - 1], &bones[i], &absolutes[i]);
        }
    }
    // A matrix of constants (no derivative) multiplied by an active one: a zero
    // derivative record with zero blocks as large as mat_mult reads.
    Matrix *verts = get_new_matrix(3, nv);
    for (i = 0; i < nv; i++)
    {
        for (j = 0; j < 3; j++)
        {
            verts->data[j + i * verts->nrows] = 0.5 + i - 0.25 * j;
        }
    }
    Matrix *moved = get_new_empty_matrix();
    mat_mult(&absolutes[nb - 1], verts, moved);
    // A block with derivatives freed just before `positions` is sized: its twin would be
    // handed out again by malloc, stale derivatives in it.
    Matrix *scratch = get_new_matrix(3, nv);
    for (i = 0; i < 3 * nv; i++)
    {
        scratch->data[i] = moved->data[i] * theta[0];
    }
    moved->data[0] += scratch->data[3 * nv - 1];
    delete_matrix(scratch);
    // Sized, filled with zeros (no derivative), then accumulated into in a loop: its twin
    // is read where only the primal was written.
    Matrix *positions = get_new_empty_matrix();
    resize(positions, 3, nv);
    fill(positions, 0.0);
    for (k = 0; k < nb; k++)
    {
        for (i = 0; i < 3 * nv; i++)
        {
            positions->data[i] += moved->data[i] * (k + 1.0) / nb;
        }
    }
    for (i = 0; i < nc; i++)
    {
        Triangle tri;
        tri.verts[0] = i % nv;
        tri.verts[1] = (i + 1) % nv;
        tri.verts[2] = (i + 2) % nv;
        const int *vv = tri.verts;
        const double *u = &us[2 * i];
        for (j = 0; j < 3; j++)
        {
            double p = u[0] * positions->data[j + vv[0] * positions->nrows] +
                       u[1] * positions->data[j + vv[1] * positions->nrows] +
                       (1.0 - u[0] - u[1]) * positions->data[j + vv[2] * positions->nrows];
            err[i * 3 + j] = p - 0.1 * j;
        }
    }
    delete_matrix(pose);
    delete_matrix(R);
    delete_matrix(verts);
    delete_matrix(moved);
    delete_matrix(positions);
    delete_light_matrix_array(bones, nb);
    delete_light_matrix_array(absolutes, nb);
}
