// radtap: -head "stack_loss(loss)/(wts xin)" -size st=2*nl*b -size out=b
// sizes: nl=3 b=4 wts=3*nl*b xin=b st=2*nl*b out=b loss=1
// ADBench's LSTM prediction loop: each layer's cell reads the previous layer's output through
// a local pointer that the loop moves along the state array (`xp = x2;` before the loop,
// `xp = &(st[i]);` last in its body, `i += 2 * b`), and writes its hidden and cell parts
// `&(st[i])`, `&(st[i + b])`. At the call `xp` is `x2` or `&(st[i - 2 * b])`, b elements
// each: no part overlaps a written one *(fixed: the adjoint refused the call as arguments
// that may share memory)*.
#include <math.h>

void layer(int h, const double *w, double *hid, double *cel, const double *in)
{
    int j;
    for (j = 0; j < h; j++)
        cel[j] = 0.5 * cel[j] + tanh(w[j] * in[j] + w[h + j] * hid[j]);
    for (j = 0; j < h; j++)
        hid[j] = w[2 * h + j] * sin(cel[j]) + 0.1 * in[j];
}

void stack_pred(int nl, int b, const double *wts, double *st, const double *xin, double *out)
{
    int i;
    for (i = 0; i < b; i++)
        out[i] = 0.9 * xin[i];
    const double *xp = out;
    for (i = 0; i <= 2 * nl * b - 1; i += 2 * b) {
        layer(b, &(wts[i / 2 * 3]), &(st[i]), &(st[i + b]), xp);
        xp = &(st[i]);
    }
    for (i = 0; i < b; i++)
        out[i] = xp[i] * xp[i] + 1.0;
}

void stack_loss(int nl, int b, const double *wts, const double *xin, double *st, double *out,
                double *loss)
{
    int i;
    for (i = 0; i < 2 * nl * b; i++)
        st[i] = 0.1 * (i % 3) + 0.5;
    stack_pred(nl, b, wts, st, xin, out);
    stack_pred(nl, b, wts, st, xin, out);
    *loss = 0.0;
    for (i = 0; i < b; i++)
        *loss = *loss + log(out[i]);
}
