// radtap: -head "hand_objective(err)/(theta)"
// sizes: npts=4 theta=9 base=3*npts weights=3*npts targets=3*npts err=3*npts
// ADBench-style hand skinning with fixed-size matrix structs from the header
// next to the source (Mat3 with rows/cols and a data[9] array, Vec3), helpers
// taking Mat3 * and Vec3 *, a chain of bone transforms accumulated in a local
// array of structs, a VLA of transformed points, parenthesised operands and
// &(theta[3 * b]) addresses.
#include <math.h>
#include "c_hand_skin.h"

void angle_axis_to_rotation(const double *angle_axis, Mat3 *R)
{
    double n = sqrt(angle_axis[0] * angle_axis[0] + angle_axis[1] * angle_axis[1]
                    + angle_axis[2] * angle_axis[2]);
    double x = angle_axis[0] / n, y = angle_axis[1] / n, z = angle_axis[2] / n;
    double s = sin(n), c = cos(n);
    R->rows = 3;
    R->cols = 3;
    R->data[0] = x * x + (1 - x * x) * c;
    R->data[1] = x * y * (1 - c) - z * s;
    R->data[2] = x * z * (1 - c) + y * s;
    R->data[3] = x * y * (1 - c) + z * s;
    R->data[4] = y * y + (1 - y * y) * c;
    R->data[5] = y * z * (1 - c) - x * s;
    R->data[6] = x * z * (1 - c) - y * s;
    R->data[7] = z * y * (1 - c) + x * s;
    R->data[8] = z * z + (1 - z * z) * c;
}

void mat3_mult(const Mat3 *A, const Mat3 *B, Mat3 *C)
{
    int i, j, k;
    C->rows = A->rows;
    C->cols = B->cols;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            C->data[3 * i + j] = 0.0;
            for (k = 0; k < 3; k++)
                C->data[3 * i + j] = C->data[3 * i + j] + (A->data[3 * i + k]) * B->data[3 * k + j];
        }
}

void mat3_copy(const Mat3 *A, Mat3 *B)
{
    int i;
    B->rows = A->rows;
    B->cols = A->cols;
    for (i = 0; i < 9; i++)
        B->data[i] = A->data[i];
}

void mat3_apply(const Mat3 *A, const Vec3 *v, Vec3 *out)
{
    out->x = A->data[0] * v->x + A->data[1] * v->y + A->data[2] * v->z;
    out->y = A->data[3] * v->x + A->data[4] * v->y + A->data[5] * v->z;
    out->z = A->data[6] * v->x + A->data[7] * v->y + (A->data[8]) * v->z;
}

void hand_objective(int npts, const double *theta, const double *base,
                    const double *weights, const double *targets, double *err)
{
    Mat3 chain[NBONES];
    Mat3 R, prod;
    Vec3 p, q;
    double skinned[3 * npts];
    int b, i;
    angle_axis_to_rotation(&(theta[0]), &(chain[0]));
    for (b = 1; b < NBONES; b++) {
        angle_axis_to_rotation(&(theta[3 * b]), &R);
        mat3_mult(&(chain[b - 1]), &R, &prod);
        mat3_copy(&prod, &(chain[b]));
    }
    for (i = 0; i < npts; i++) {
        skinned[3 * i] = 0.0;
        skinned[3 * i + 1] = 0.0;
        skinned[3 * i + 2] = 0.0;
        p.x = base[3 * i];
        p.y = base[3 * i + 1];
        p.z = base[3 * i + 2];
        for (b = 0; b < NBONES; b++) {
            mat3_apply(&(chain[b]), &p, &q);
            skinned[3 * i] = skinned[3 * i] + weights[b * npts + i] * q.x;
            skinned[3 * i + 1] = skinned[3 * i + 1] + weights[b * npts + i] * q.y;
            skinned[3 * i + 2] = skinned[3 * i + 2] + weights[b * npts + i] * (q.z);
        }
    }
    for (i = 0; i < 3 * npts; i++)
        err[i] = (targets[i]) - skinned[i];
}
