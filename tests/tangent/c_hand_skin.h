/* Types and prototypes of c_hand_skin.c (ADBench-style hand skinning, fixed-size). */
#ifndef C_HAND_SKIN_H
#define C_HAND_SKIN_H

#define NBONES 3

typedef struct {
    int rows, cols;
    double data[9];
} Mat3;

typedef struct {
    double x, y, z;
} Vec3;

void angle_axis_to_rotation(const double *angle_axis, Mat3 *R);
void mat3_mult(const Mat3 *A, const Mat3 *B, Mat3 *C);
void mat3_copy(const Mat3 *A, Mat3 *B);
void mat3_apply(const Mat3 *A, const Vec3 *v, Vec3 *out);
void hand_objective(int npts, const double *theta, const double *base,
                    const double *weights, const double *targets, double *err);

#endif
