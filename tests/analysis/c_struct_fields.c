// radtap: -head advance -vars "a s" -outvars "s"
// struct state { double x, y; int n; } is passed by pointer to the callee
// step(). Only field x is active: y is overwritten by the constant 1.0 in
// advance (useful in step but no longer varied) and n is an int counter.
// Fields are kept distinct: activity of s->x does not spread to s->y or s->n.
struct state {
    double x;
    double y;
    int n;
};

static void step(struct state *p, double h)
{
    p->x = p->x + h * p->y * p->x;
    p->n = p->n + 1;
}

void advance(struct state *s, double a)
{
    int i;
    s->y = 1.0;
    for (i = 0; i < 3; i++) {
        step(s, a);
    }
}
