// radtap: -head sbv -vars "x" -outvars "y"
// sizes: y=1
// struct built locally, passed by value to a helper that modifies its copy,
// and by pointer to another that updates it.
struct pair {
    double a;
    double b;
};

static double norm2(struct pair p)
{
    p.a = p.a * 2.0;
    return p.a * p.a + p.b * p.b;
}

static void scale(struct pair *p, double s)
{
    p->a *= s;
    p->b = p->b * s + p->a;
}

void sbv(double x, double *y)
{
    struct pair q;
    q.a = x;
    q.b = x * x;
    scale(&q, x);
    *y = norm2(q) + q.a;
}
