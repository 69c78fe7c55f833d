// radtap: -head "logreg_objective(loss)/(w X)"
// sizes: n=5 d=2 w=d X=n*d labels=n loss=1
// Regularised logistic regression: the regularisation weight comes in a
// typedef'd struct (Problem, from the header next to the source) passed by
// pointer, the data rows through &(X[i * d]), margins in a heap work array
// and the per-row losses in a VLA, a smooth softplus helper with
// parenthesised operands.
#include <math.h>
#include <stdlib.h>
#include "c_logreg_objective.h"

double dot(int d, const double *a, const double *b)
{
    int k;
    double s = 0.0;
    for (k = 0; k < d; k++)
        s = s + (a[k]) * (b[k]);
    return s;
}

double log1pexp(double z)
{
    return log(1.0 + exp(-(z))) + z;
}

void logreg_objective(int n, int d, const Problem *prob, const double *w, const double *X,
                      const double *labels, double *loss)
{
    int i;
    double *margin = (double *)malloc(n * sizeof(double));
    double rowloss[n];
    double total = 0.0;
    for (i = 0; i < n; i++)
        margin[i] = (labels[i] - 0.5) * dot(d, w, &(X[i * d]));
    for (i = 0; i < n; i++)
        rowloss[i] = log1pexp(-margin[i]) - (-margin[i]);
    for (i = 0; i < n; i++)
        total = total + rowloss[i];
    *loss = total / n + prob->l2 * dot(d, w, w);
    free(margin);
}
