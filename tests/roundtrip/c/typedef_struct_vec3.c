/* typedef struct {...} Vec3; value semantics, helper functions, arrays. */
#include <stdio.h>
#include <math.h>

typedef double real;

typedef struct {
    real x, y, z;
} Vec3;

typedef struct {
    Vec3 origin;
    Vec3 dir;
} Ray;

typedef struct Body {
    Vec3 pos;
    Vec3 vel;
    real mass;
} Body;

static Vec3 vec3(real x, real y, real z)
{
    Vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static Vec3 add(Vec3 a, Vec3 b) { return vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
static Vec3 sub(Vec3 a, Vec3 b) { return vec3(a.x - b.x, a.y - b.y, a.z - b.z); }
static Vec3 scale(Vec3 a, real s) { return vec3(a.x * s, a.y * s, a.z * s); }
static real dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static Vec3 cross(Vec3 a, Vec3 b)
{
    return vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static real length(Vec3 a) { return sqrt(dot(a, a)); }

static Vec3 normalize(Vec3 a)
{
    real l = length(a);
    return l > 0 ? scale(a, (real)1 / l) : a;
}

static Vec3 ray_at(const Ray *r, real t)
{
    return add(r->origin, scale(r->dir, t));
}

int main(void)
{
    Vec3 a = vec3(1, 2, 3), b = vec3(-2, 0.5, 4);
    Vec3 c = cross(a, b);
    Vec3 n = normalize(c);
    Ray r;
    Body bodies[2];
    Vec3 com = {0, 0, 0};
    real mtot = 0;
    int i;

    printf("a.b = %.4f\n", dot(a, b));
    printf("a x b = (%.4f, %.4f, %.4f)\n", c.x, c.y, c.z);
    printf("|n| = %.6f, n.a = %.6f\n", length(n), dot(n, a));

    r.origin = a;
    r.dir = normalize(sub(b, a));
    {
        Vec3 p = ray_at(&r, (real)length(sub(b, a)));
        printf("ray end = (%.4f, %.4f, %.4f)\n", p.x, p.y, p.z);
    }

    bodies[0].pos = a;
    bodies[0].vel = vec3(0, 1, 0);
    bodies[0].mass = 2.0;
    bodies[1].pos = b;
    bodies[1].vel = vec3(1, 0, 0);
    bodies[1].mass = 3.0;
    for (i = 0; i < 2; i++) {
        Body *bp = &bodies[i];
        com = add(com, scale(bp->pos, bp->mass));
        mtot += bp->mass;
    }
    com = scale(com, 1.0 / mtot);
    printf("com = (%.4f, %.4f, %.4f)\n", com.x, com.y, com.z);
    printf("sizeof(Vec3)/sizeof(real) = %lu\n", (unsigned long)(sizeof(Vec3) / sizeof(real)));
    return 0;
}
