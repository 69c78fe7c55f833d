// radtap: -head "rot(y)/(x)"
// sizes: x=4 y=4
// Intrinsic values stored in scalars read back by the adjoint (the rotation of bundle
// adjustment): theta = sqrt(sq) gives the partial 1 / (2 * theta); costheta = cos(theta)
// and sintheta = sin(theta) give each other's partials, whichever comes first. Not read
// back: a value whose argument is assigned in between (phi), one computed in a loop (c in
// the loop holds the last iteration's value), one assigned twice (s2).
#include <math.h>

void rot(const double *x, double *y)
{
    int i;
    double sq, theta, costheta, sintheta, inv, phi, sphi, cphi, s2, c, acc;
    sq = x[0] * x[0] + x[1] * x[1] + 0.25;
    theta = sqrt(sq);
    sintheta = sin(theta);
    costheta = cos(theta);
    inv = 1.0 / theta;
    phi = x[2] * theta;
    sphi = sin(phi);
    phi = phi + x[3];
    cphi = cos(phi);
    s2 = sin(x[3]);
    s2 = s2 * cos(x[3]);
    acc = 0.0;
    for (i = 0; i < 3; i++) {
        c = cos(x[i] * theta);
        acc = acc + sin(x[i] * theta) * c;
    }
    y[0] = costheta * x[2] - sintheta * x[3] + inv;
    y[1] = sintheta * x[2] + costheta * x[3];
    y[2] = sphi * cphi + s2;
    y[3] = acc * inv;
}
