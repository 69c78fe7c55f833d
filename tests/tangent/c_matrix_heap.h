/* The matrix type of c_matrix_heap.c: a struct owning heap memory. */
#ifndef C_MATRIX_HEAP_H
#define C_MATRIX_HEAP_H

typedef struct {
    int rows, cols;
    double *data;
} Matrix;

void mat_fill(Matrix *m, const double *x);
double mat_energy(const Matrix *m);

#endif
