/* Designated initializers and compound literals. */
#include <stdio.h>

typedef struct {
    double x, y;
} Point;

typedef struct {
    const char *name;
    int id;
    Point pos;
    double weights[4];
} Item;

static double sum_points(const Point *p, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += p[i].x + p[i].y;
    return s;
}

static double length2(Point p)
{
    return p.x * p.x + p.y * p.y;
}

int main(void)
{
    Point a = {.y = 2.0, .x = 1.0};
    Item it = {.id = 7, .name = "widget", .pos = {.x = -1.0, .y = 0.5}, .weights = {[2] = 3.0, [0] = 1.0}};
    int sparse[10] = {[1] = 10, [5] = 50, [9] = 90};
    double grid[3][3] = {[0][0] = 1.0, [1][1] = 2.0, [2][2] = 3.0};
    Item items[2] = {[1] = {.name = "second", .id = 2}, [0].name = "first", [0].id = 1};
    Point *pp;
    int i;

    printf("a = (%.1f, %.1f)\n", a.x, a.y);
    printf("it: %s id=%d pos=(%.1f, %.1f) w=%.1f %.1f %.1f %.1f\n", it.name, it.id, it.pos.x, it.pos.y,
           it.weights[0], it.weights[1], it.weights[2], it.weights[3]);
    for (i = 0; i < 10; i++)
        printf("%d%s", sparse[i], i < 9 ? "," : "\n");
    printf("trace = %.1f\n", grid[0][0] + grid[1][1] + grid[2][2]);
    printf("items: %s/%d %s/%d\n", items[0].name, items[0].id, items[1].name, items[1].id);

    a = (Point){3.0, 4.0};
    printf("a = (%.1f, %.1f) |a|^2 = %.1f\n", a.x, a.y, length2(a));
    printf("literal length2 = %.2f\n", length2((Point){.x = 0.5, .y = 1.5}));
    printf("sum of literal array = %.2f\n", sum_points((Point[]){{1, 2}, {3, 4}, {5, 6}}, 3));

    pp = (Point[2]){{0.0, 0.0}, {10.0, 20.0}};
    pp[0].x = 5.0;
    printf("pp[0].x = %.1f pp[1].y = %.1f\n", pp[0].x, pp[1].y);
    {
        int *ip = (int[]){4, 5, 6};
        double total = 0.0;
        for (i = 0; i < 3; i++)
            total += ip[i] * (double[]){0.5, 1.0, 2.0}[i];
        printf("weighted = %.2f\n", total);
    }
    return 0;
}
