// radtap: -head "lstm_cells(loss)/(w x)"
// sizes: l=2 b=3 c=3 w=4*l*b x=c*b loss=1
// ADBench's LSTM layer call as written there: the hidden and cell halves of one
// state array passed to one call, &(s[i * 2 * b]) and &(s[(i * 2 + 1) * b]),
// both written by the callee. They are two parts of one array that the callee
// touches b elements of each (extent inference), so they cannot overlap: the
// adjoint takes the call (two arguments into one array used to be refused as
// possible aliases). Also a VLA whose bound is a local (int m = 2 * l * b;
// double s[m];) never changed after its declaration.
#include <math.h>

static double sigm(double v)
{
    return 1.0 / (1.0 + exp(-(v)));
}

static void cell(int b, const double *wt, double *hidden, double *cellv,
                 const double *input)
{
    int i;
    for (i = 0; i < b; i++) {
        double f = sigm(input[i] * wt[i] + hidden[i] * wt[b + i]);
        double g = tanh(input[i] * wt[2 * b + i] + hidden[i] * wt[3 * b + i]);
        cellv[i] = (cellv[i]) * f + (1.0 - f) * g;
        hidden[i] = f * tanh(cellv[i]);
    }
}

void lstm_cells(int l, int b, int c, const double *w, const double *x,
                double *loss)
{
    int m = 2 * l * b;
    double s[m];
    int i, t, k;
    double total = 0.0;
    for (k = 0; k < m; k++)
        s[k] = 0.5;
    for (t = 0; t < c; t++) {
        for (i = 0; i < l; i++)
            cell(b, &(w[i * 4 * b]), &(s[i * 2 * b]), &(s[(i * 2 + 1) * b]),
                 &(x[t * b]));
        for (k = 0; k < b; k++)
            total = total + (s[(2 * l - 2) * b + k]) * (s[(2 * l - 2) * b + k]);
    }
    *loss = total / (c * b);
}
