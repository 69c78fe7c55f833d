/* Arrays of structs, pointers to structs, linked list built on the stack. */
#include <stdio.h>
#include <string.h>

#define NP 5

struct particle {
    int id;
    double mass;
    double pos[3];
    double vel[3];
};

struct node {
    int value;
    struct node *next;
};

static void step(struct particle *p, int n, double dt)
{
    int i, k;
    for (i = 0; i < n; i++, p++)
        for (k = 0; k < 3; k++)
            p->pos[k] += dt * p->vel[k];
}

static double total_mass(const struct particle ps[], int n)
{
    double m = 0.0;
    int i;
    for (i = 0; i < n; i++)
        m += ps[i].mass;
    return m;
}

static int list_sum(const struct node *head)
{
    int s = 0;
    for (; head != NULL; head = head->next)
        s += head->value;
    return s;
}

int main(void)
{
    struct particle ps[NP];
    struct node nodes[4];
    struct particle *heaviest;
    int i;

    memset(ps, 0, sizeof ps);
    for (i = 0; i < NP; i++) {
        ps[i].id = 100 + i;
        ps[i].mass = 1.0 + 0.5 * i;
        ps[i].vel[0] = i;
        ps[i].vel[1] = -i;
        ps[i].vel[2] = 0.25 * i;
    }
    step(ps, NP, 0.1);
    step(&ps[0], NP, 0.1);

    heaviest = &ps[0];
    for (i = 1; i < NP; i++)
        if (ps[i].mass > heaviest->mass)
            heaviest = ps + i;

    for (i = 0; i < NP; i++)
        printf("id=%d pos=(%.2f, %.2f, %.2f)\n", ps[i].id, ps[i].pos[0], ps[i].pos[1], ps[i].pos[2]);
    printf("total mass=%.2f heaviest id=%d\n", total_mass(ps, NP), heaviest->id);

    for (i = 0; i < 4; i++) {
        nodes[i].value = (i + 1) * 10;
        nodes[i].next = (i < 3) ? &nodes[i + 1] : NULL;
    }
    printf("list sum=%d\n", list_sum(&nodes[0]));
    printf("second via ptr=%d\n", nodes[0].next->value);
    printf("third via ptr=%d\n", (*nodes[0].next).next->value);
    return 0;
}
