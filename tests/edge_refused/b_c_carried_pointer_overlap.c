// radtap: -head "stack_loss(loss)/(wts)" -size st=2*nl*b
// sizes: nl=3 b=4 wts=2*nl*b st=2*nl*b loss=1
// A local pointer moved along the state array by the loop (`xp = &(st[i + b])` last in the
// body, `i += 2 * b`): at the call it is `&(st[i - b])`, and the layer reads 2 * b elements
// from there, the second half being the part `&(st[i])` it writes. Refused at the call (the
// ADBench shape, the previous layer's first half, is taken).
#include <math.h>

void layer(int h, const double *w, double *hid, const double *in)
{
    int j;
    for (j = 0; j < h; j++)
        hid[j] = tanh(w[j] * in[j] + w[h + j] * in[h + j]);
}

void stack_loss(int nl, int b, const double *wts, double *st, double *loss)
{
    int i;
    const double *xp = wts;
    for (i = 0; i <= 2 * nl * b - 1; i += 2 * b) {
        layer(b, &(wts[i]), &(st[i]), xp);
        xp = &(st[i + b]);
    }
    *loss = st[0] + st[2 * nl * b - 1];
}
