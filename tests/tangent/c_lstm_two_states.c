// radtap: -head "lstm_objective(loss)/(main_params extra_params)"
// sizes: l=2 c=3 b=3 main_params=8*l*b extra_params=3*b state=2*l*b sequence=c*b loss=1
// ADBench's LSTM cell as published: the hidden and the cell state passed as two pointers
// into one state array (&s[j*2*b], &s[j*2*b + b]). The parts are disjoint (each is b long),
// so the call is no aliasing; its snapshot records the two sections, not the whole of s,
// and the cell's last loop (the hidden state, which nothing of the adjoint reads) is not
// run again in the adjoint of the cell.
#include <math.h>
#include <stdlib.h>

double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

double logsumexp(const double *vect, int sz)
{
    int i;
    double sum = 0.0;
    for (i = 0; i < sz; i++)
        sum = sum + exp(vect[i]);
    sum = sum + 2;
    return log(sum);
}

void lstm_model(int hsize, const double *weight, const double *bias, double *hidden,
                double *cell, const double *input)
{
    int i;
    double *gates = (double *)malloc(4 * hsize * sizeof(double));
    for (i = 0; i < hsize; i++) {
        gates[i] = sigmoid(input[i] * weight[i] + bias[i]);
        gates[hsize + i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
        gates[2 * hsize + i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
        gates[3 * hsize + i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
    }
    for (i = 0; i < hsize; i++)
        cell[i] = cell[i] * gates[i] + gates[hsize + i] * gates[3 * hsize + i];
    for (i = 0; i < hsize; i++)
        hidden[i] = gates[2 * hsize + i] * tanh(cell[i]);
    free(gates);
}

void lstm_predict(int l, int b, const double *w, const double *w2, double *s, const double *x,
                  double *x2)
{
    int i, j;
    for (i = 0; i < b; i++)
        x2[i] = x[i] * w2[i];
    for (j = 0; j < l; j++) {
        lstm_model(b, &w[j * 8 * b], &w[j * 8 * b + 4 * b], &s[j * 2 * b], &s[j * 2 * b + b], x2);
        for (i = 0; i < b; i++)
            x2[i] = s[j * 2 * b + i];
    }
    for (i = 0; i < b; i++)
        x2[i] = x2[i] * w2[b + i] + w2[2 * b + i];
}

void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    double *state, const double *sequence, double *loss)
{
    int i, t;
    double total = 0.0;
    int count = 0;
    double *ypred = (double *)malloc(b * sizeof(double));
    double *ynorm = (double *)malloc(b * sizeof(double));
    double lse;
    for (t = 0; t < c - 1; t++) {
        lstm_predict(l, b, main_params, extra_params, state, &sequence[t * b], ypred);
        lse = logsumexp(ypred, b);
        for (i = 0; i < b; i++)
            ynorm[i] = ypred[i] - lse;
        for (i = 0; i < b; i++)
            total = total + sequence[(t + 1) * b + i] * ynorm[i];
        count = count + b;
    }
    *loss = -total / count;
    free(ypred);
    free(ynorm);
}
