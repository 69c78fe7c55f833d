// radtap: -head "bone_chain(err)/(theta)"
// sizes: nb=4 nv=5 theta=3*nb+3 err=3*nv
// ADBench's hand tracker in the adjoint (hand.c's shapes, own code): helpers
// resize a matrix they are given (a rotation built by mat_mult into the
// caller's R, whose block resize may replace), arrays of matrices sized by
// resize inside helpers, bones chained through a parents array
// (mat_mult(&absolutes[parents[i]], &relatives[i], &absolutes[i]): one record
// only if parents[i] == i, checked when the adjoint runs), helpers given the
// arrays of records with their count, matrices of constants multiplied by
// active ones, a rotation with an early return. Refused before: blocks whose
// count only the records' members give (recorded now as m->nrows * m->ncols,
// proven for every Matrix of the program), the arrays' counts (from the
// callers' get_matrix_array(count)), the two arguments into one array.
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

// A rotation about z by a[0] scaled by (1 + a[1]^2), or the identity for a
// small angle (an early return).
void small_rotation(const double *a, Matrix *R)
{
    double n = sqrt(a[0] * a[0] + 1e-3);
    if (n < 0.05)
    {
        set_identity(R);
        return;
    }
    double c = cos(a[0]), s = sin(a[0]), g = 1.0 + a[1] * a[1];
    set_identity(R);
    R->data[0 + 0 * R->nrows] = c * g;
    R->data[1 + 0 * R->nrows] = s;
    R->data[0 + 1 * R->nrows] = -s;
    R->data[1 + 1 * R->nrows] = c * g;
}

// Two elementary rotations multiplied into the caller's R (mat_mult resizes it).
void two_axes(const double *xy, Matrix *R)
{
    Matrix *Rx = get_new_matrix(3, 3);
    Matrix *Ry = get_new_matrix(3, 3);
    set_identity(Rx);
    Rx->data[1 + 1 * Rx->nrows] = cos(xy[0]);
    Rx->data[2 + 1 * Rx->nrows] = sin(xy[0]);
    Rx->data[1 + 2 * Rx->nrows] = -Rx->data[2 + 1 * Rx->nrows];
    Rx->data[2 + 2 * Rx->nrows] = Rx->data[1 + 1 * Rx->nrows];
    set_identity(Ry);
    Ry->data[0 + 0 * Ry->nrows] = cos(xy[1]);
    Ry->data[0 + 2 * Ry->nrows] = sin(xy[1]) * xy[2];
    Ry->data[2 + 0 * Ry->nrows] = -Ry->data[0 + 2 * Ry->nrows];
    Ry->data[2 + 2 * Ry->nrows] = Ry->data[0 + 0 * Ry->nrows];
    mat_mult(Ry, Rx, R);
    delete_matrix(Rx);
    delete_matrix(Ry);
}

void posed_relatives(int nb, const Matrix *base, const Matrix *pose, Matrix *relatives)
{
    int i;
    Matrix *R = get_new_matrix(3, 3);
    for (i = 0; i < nb; i++)
    {
        two_axes(pose->data + i * pose->nrows, R);
        mat_mult(&base[i], R, &relatives[i]);
    }
    delete_matrix(R);
}

void relatives_to_absolutes(int count, const Matrix *relatives, const int *parents, Matrix *absolutes)
{
    int i;
    for (i = 0; i < count; i++)
    {
        if (parents[i] == -1)
        {
            copy(&absolutes[i], &relatives[i]);
        }
        else
        {
            mat_mult(&absolutes[parents[i]], &relatives[i], &absolutes[i]);
        }
    }
}

void bone_chain(int nb, int nv, const double *theta, double *err)
{
    int i, j, b;
    int *parents = (int *)malloc(nb * sizeof(int));
    for (i = 0; i < nb; i++)
    {
        parents[i] = i == 0 ? -1 : (i - 1) / 2;
    }
    // Constant base matrices and vertices (no derivative).
    Matrix *base = get_matrix_array(nb);
    for (i = 0; i < nb; i++)
    {
        resize(&base[i], 3, 3);
        for (j = 0; j < 9; j++)
        {
            base[i].data[j] = (j % 4 == 0 ? 1.0 : 0.1 * (i + 1)) - 0.05 * j;
        }
    }
    Matrix *verts = get_new_matrix(3, nv);
    for (i = 0; i < 3 * nv; i++)
    {
        verts->data[i] = 0.3 + 0.1 * i;
    }
    Matrix *pose = get_new_empty_matrix();
    resize(pose, 3, nb);
    for (i = 0; i < 3 * nb; i++)
    {
        pose->data[i] = theta[i];
    }
    Matrix *relatives = get_matrix_array(nb);
    Matrix *absolutes = get_matrix_array(nb);
    posed_relatives(nb, base, pose, relatives);
    relatives_to_absolutes(nb, relatives, parents, absolutes);
    // Skinning: every bone moves the vertices, weighted.
    Matrix *positions = get_new_empty_matrix();
    resize(positions, 3, nv);
    for (i = 0; i < 3 * nv; i++)
    {
        positions->data[i] = 0.0;
    }
    Matrix *curr = get_new_matrix(3, nv);
    for (b = 0; b < nb; b++)
    {
        mat_mult(&absolutes[b], verts, curr);
        for (i = 0; i < 3 * nv; i++)
        {
            positions->data[i] += curr->data[i] * (1.0 + b) / nb;
        }
    }
    // A global rotation, the identity for a small angle.
    Matrix *G = get_new_matrix(3, 3);
    small_rotation(&theta[3 * nb], G);
    Matrix *moved = get_new_empty_matrix();
    mat_mult(G, positions, moved);
    for (i = 0; i < 3 * nv; i++)
    {
        err[i] = moved->data[i] + theta[3 * nb + 2] * positions->data[i];
    }
    delete_matrix(G);
    delete_matrix(moved);
    delete_matrix(curr);
    delete_matrix(positions);
    delete_matrix(pose);
    delete_matrix(verts);
    delete_light_matrix_array(base, nb);
    delete_light_matrix_array(relatives, nb);
    delete_light_matrix_array(absolutes, nb);
    free(parents);
}
