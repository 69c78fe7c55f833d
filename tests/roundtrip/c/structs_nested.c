/* Nested structs, struct assignment, member access through . and ->. */
#include <stdio.h>
#include <math.h>

struct point {
    double x;
    double y;
};

struct rect {
    struct point lo;
    struct point hi;
};

struct shape {
    char name[16];
    int id;
    struct rect box;
    struct {
        double r, g, b;
    } color;
};

static double rect_area(const struct rect *r)
{
    return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y);
}

static struct point rect_center(struct rect r)
{
    struct point c;
    c.x = 0.5 * (r.lo.x + r.hi.x);
    c.y = 0.5 * (r.lo.y + r.hi.y);
    return c;
}

static void grow(struct shape *s, double d)
{
    s->box.lo.x -= d;
    s->box.lo.y -= d;
    s->box.hi.x += d;
    s->box.hi.y += d;
}

static double dist(struct point a, struct point b)
{
    return hypot(a.x - b.x, a.y - b.y);
}

int main(void)
{
    struct shape s = {"box", 7, {{0.0, 0.0}, {4.0, 3.0}}, {0.25, 0.5, 0.75}};
    struct shape copy;
    struct point c;
    struct shape *ps = &s;

    printf("%s #%d area=%.2f\n", s.name, s.id, rect_area(&s.box));
    c = rect_center(s.box);
    printf("center=(%.2f, %.2f)\n", c.x, c.y);

    copy = s;
    grow(ps, 1.0);
    printf("grown area=%.2f copy area=%.2f\n", rect_area(&ps->box), rect_area(&copy.box));
    printf("diag=%.4f\n", dist(ps->box.lo, ps->box.hi));
    printf("color=(%.2f, %.2f, %.2f)\n", ps->color.r, s.color.g, (&s)->color.b);
    printf("lo=(%.1f, %.1f)\n", (*ps).box.lo.x, ps->box.lo.y);
    return 0;
}
