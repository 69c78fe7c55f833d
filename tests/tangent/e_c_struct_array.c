// radtap: -head sarr -vars "x" -outvars "e"
// sizes: x=6 e=1
// local array of structs filled from x: fields read and written in a loop,
// a struct element passed by pointer to a helper.
struct pt {
    double x;
    double v;
};

static void push(struct pt *q, double dt)
{
    q->x = q->x + dt * q->v;
    q->v = q->v * (1.0 - 0.1 * q->x);
}

void sarr(const double x[6], double *e)
{
    struct pt p[3];
    int i;
    for (i = 0; i < 3; i++) {
        p[i].x = x[2 * i];
        p[i].v = x[2 * i + 1];
    }
    for (i = 0; i < 3; i++)
        push(&p[i], 0.1);
    *e = 0.0;
    for (i = 0; i < 3; i++)
        *e += p[i].x * p[i].v + p[(i + 1) % 3].x;
}
