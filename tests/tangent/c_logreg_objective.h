/* Types and prototypes of c_logreg_objective.c. */
#ifndef C_LOGREG_OBJECTIVE_H
#define C_LOGREG_OBJECTIVE_H

typedef struct {
    double l2;
    int iters;
} Problem;

double dot(int d, const double *a, const double *b);
double log1pexp(double z);
void logreg_objective(int n, int d, const Problem *prob, const double *w, const double *X,
                      const double *labels, double *loss);

#endif
