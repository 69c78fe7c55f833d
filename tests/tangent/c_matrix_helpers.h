/* The matrix type of c_matrix_helpers.c (ADBench style): a struct owning heap
   memory, created and destroyed by helpers. */
#ifndef C_MATRIX_HELPERS_H
#define C_MATRIX_HELPERS_H

typedef struct {
    int rows, cols;
    double *data;
} Matrix;

Matrix *get_new_matrix(int r, int c);
void delete_matrix(Matrix *m);
double *get_new_vector(int n);
void mat_set(Matrix *m, const double *x);
void mat_mul_vec(const Matrix *a, const double *v, double *out);
double sq_norm(int n, const double *v);
void mat_objective(int r, int c, const double *x, double *err);

#endif
