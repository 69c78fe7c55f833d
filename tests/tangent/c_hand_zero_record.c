// radtap: -head "pose_objective(err)/(theta)"
// sizes: nb=3 theta=2*nb err=4*nb
// A matrix of constants (no derivative) multiplied by an active one, in the
// adjoint (ADBench's hand tracker: mat_mult(&base_relatives[i], tr,
// &relatives[i]), mat_mult(&transforms[i], base_positions, curr)): mat_mult's
// first or second parameter is active through another call, so its adjoint takes
// a derivative record for it; here a zero record whose blocks, as large as
// mat_mult reads, are calloc'ed before the adjoint call and freed after it, for
// the split mat_mult_fwd as for mat_mult_bwd. Refused before ("passing zeros of
// unknown extent").
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

Matrix *get_new_matrix(int nrows, int ncols)
{
    Matrix *mat = (Matrix *)malloc(sizeof(Matrix));
    mat->nrows = nrows;
    mat->ncols = ncols;
    mat->data = (double *)malloc(nrows * ncols * sizeof(double));
    return mat;
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

// A 2 x 2 pose from two parameters.
void make_pose(const double *t, Matrix *out)
{
    resize(out, 2, 2);
    out->data[0] = cos(t[0]) * t[1];
    out->data[1] = sin(t[0]);
    out->data[2] = -sin(t[0]) * t[1];
    out->data[3] = cos(t[0]) + t[1] * t[1];
}

void pose_objective(int nb, const double *theta, double *err)
{
    int i, j;
    // Constant base matrices, one per bone, and a constant 2 x 2 right factor.
    Matrix *base = get_matrix_array(nb);
    for (i = 0; i < nb; i++)
    {
        resize(&base[i], 2, 2);
        for (j = 0; j < 4; j++)
        {
            base[i].data[j] = 0.5 + i - 0.25 * j;
        }
    }
    Matrix *verts = get_new_matrix(2, 2);
    for (j = 0; j < 4; j++)
    {
        verts->data[j] = 1.0 + 0.5 * j;
    }
    Matrix *poses = get_matrix_array(nb);
    Matrix *posed = get_matrix_array(nb);
    Matrix *moved = get_matrix_array(nb);
    for (i = 0; i < nb; i++)
    {
        make_pose(&theta[2 * i], &poses[i]);
        // Inactive left factor.
        mat_mult(&base[i], &poses[i], &posed[i]);
        // Inactive right factor.
        mat_mult(&posed[i], verts, &moved[i]);
    }
    for (i = 0; i < nb; i++)
    {
        for (j = 0; j < 4; j++)
        {
            err[4 * i + j] = moved[i].data[j] * posed[i].data[3 - j];
        }
    }
    delete_matrix(verts);
    delete_light_matrix_array(base, nb);
    delete_light_matrix_array(poses, nb);
    delete_light_matrix_array(posed, nb);
    delete_light_matrix_array(moved, nb);
}
