/* The matrix type of e_c_matrix_helpers.c. */
typedef struct {
    int rows, cols;
    double *data;
} Matrix;

Matrix *get_new_matrix(int r, int c);
void delete_matrix(Matrix *m);
