// radtap: -head "lstm_objective(loss)/(main_params extra_params)"
// sizes: l=2 c=3 b=2 main_params=8*l*b extra_params=3*b state=2*l*b sequence=c*b loss=1
// ADBench-style LSTM: prototypes in the header next to the source, a layer
// helper on pointers into the parameter and state arrays (&(w[i * 8 * b]),
// w + i * 8 * b + 4 * b, s + 2 * i * b), VLAs for the gates and the prediction, a heap work array
// for the normalised output, parenthesised operands.
#include <math.h>
#include <stdlib.h>
#include "c_lstm_objective.h"

double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-(x)));
}

void lstm_model(int hsize, const double *weight, const double *bias,
                double *state, const double *input)
{
    double gates[4 * hsize];
    int i;
    for (i = 0; i < hsize; i++) {
        gates[i] = sigmoid(input[i] * weight[i] + bias[i]);
        gates[hsize + i] = sigmoid(state[i] * weight[hsize + i] + bias[hsize + i]);
        gates[2 * hsize + i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
        gates[3 * hsize + i] = tanh(state[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
    }
    for (i = 0; i < hsize; i++) {
        state[hsize + i] = (state[hsize + i]) * gates[i] + gates[hsize + i] * gates[3 * hsize + i];
        state[i] = gates[2 * hsize + i] * tanh(state[hsize + i]);
    }
}

void lstm_predict(int l, int b, const double *w, const double *w2,
                  double *s, const double *x, double *x2)
{
    double xp[b];
    int i, j;
    for (i = 0; i < b; i++)
        x2[i] = x[i] * w2[i];
    for (i = 0; i < l; i++) {
        for (j = 0; j < b; j++)
            xp[j] = x2[j];
        lstm_model(b, &(w[i * 8 * b]), w + i * 8 * b + 4 * b, s + 2 * i * b, xp);
        for (j = 0; j < b; j++)
            x2[j] = (s[2 * i * b + j]);
    }
    for (i = 0; i < b; i++)
        x2[i] = x2[i] * w2[b + i] + w2[2 * b + i];
}

void lstm_objective(int l, int c, int b, const double *main_params,
                    const double *extra_params, double *state,
                    const double *sequence, double *loss)
{
    int i, t;
    double total = 0.0;
    double *ypred = (double *)malloc(b * sizeof(double));
    double ynorm[b];
    double lse;
    for (t = 0; t < c - 1; t++) {
        lstm_predict(l, b, main_params, extra_params, state, &(sequence[t * b]), ypred);
        lse = 0.0;
        for (i = 0; i < b; i++)
            lse = lse + exp(ypred[i]);
        lse = log(lse + 2.0);
        for (i = 0; i < b; i++)
            ynorm[i] = (ypred[i]) - lse;
        for (i = 0; i < b; i++)
            total = total + sequence[(t + 1) * b + i] * ynorm[i];
    }
    *loss = -total / ((c - 1) * b);
    free(ypred);
}
