// radtap: -head "energy(e)/(x)"
// sizes: x=12 e=1
// Array types named by typedefs, as vector-math headers declare them: `vec3` parameters
// (an array passed by its address), `vec3` locals, an array of `vec3` (`pos[4][3]`), a
// struct member of type `vec3`, and a two-dimensional `mat3`. They were taken for scalars:
// a `vec3` parameter was a `double` by value and the derivative through it was lost.
#include <math.h>

typedef double vec3[3];
typedef vec3 mat3[3];

typedef struct {
    vec3 v;
    double m;
} Body;

static void sub3(const vec3 a, const vec3 b, vec3 out)
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = a[k] - b[k];
}

static double dot3(const vec3 a, const vec3 b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void scale3(vec3 a, double s)
{
    int k;
    for (k = 0; k < 3; k++)
        a[k] = a[k] * s;
}

static void rotate(const mat3 r, const vec3 a, vec3 out)
{
    int i, j;
    for (i = 0; i < 3; i++) {
        out[i] = 0.0;
        for (j = 0; j < 3; j++)
            out[i] += r[i][j] * a[j];
    }
}

void energy(const double *x, double *e)
{
    vec3 pos[4];
    vec3 d, rd;
    mat3 r;
    Body b;
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (k = 0; k < 3; k++)
            pos[i][k] = x[3 * i + k];
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r[i][j] = (i == j) ? cos(x[0]) : 0.1 * sin(x[i + j]);
    *e = 0.0;
    for (i = 0; i < 4; i++)
        for (j = i + 1; j < 4; j++) {
            sub3(pos[i], pos[j], d);
            scale3(d, 0.5);
            rotate(r, d, rd);
            *e += 1.0 / (1.0 + dot3(rd, rd));
        }
    for (k = 0; k < 3; k++)
        b.v[k] = pos[1][k] * x[k];
    b.m = 2.0;
    *e += b.m * (b.v[0] * b.v[0] + b.v[1] * b.v[1] + b.v[2] * b.v[2]);
}
