// radtap: -head "energy(y)/(x)"
// sizes: x=4 y=1
// Small structs passed by value (a 2-D point, a spring with a nested point), as geometry
// code does. The adjoint handed the by-value struct's adjoint back with `*ab = *ab + ab0;`,
// which adds two structs: the output did not compile.
typedef struct {
    double u, v;
} Point;

typedef struct {
    Point rest;
    double k;
} Spring;

static double dist2(Point a, Point b)
{
    double du = a.u - b.u, dv = a.v - b.v;
    return du * du + dv * dv;
}

static double stretch(Spring s, Point p)
{
    return s.k * dist2(s.rest, p);
}

void energy(const double *x, double *y)
{
    Point p, q;
    Spring s;
    p.u = x[0];
    p.v = x[1];
    q.u = x[2] * x[0];
    q.v = x[3];
    s.rest = q;
    s.k = 0.5 + x[1] * x[1];
    *y = dist2(p, q) + stretch(s, p);
}
