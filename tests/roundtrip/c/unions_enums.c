/* Unions, enums, tagged-union pattern. */
#include <stdio.h>

enum kind { K_INT, K_DOUBLE, K_CHAR = 10, K_LAST };

enum color { RED = 1, GREEN = 2, BLUE = 4 };

union value {
    int i;
    double d;
    char c;
};

struct tagged {
    enum kind kind;
    union value v;
};

union bits {
    unsigned int u;
    unsigned char bytes[4];
};

static void show(const struct tagged *t)
{
    switch (t->kind) {
    case K_INT:
        printf("int %d\n", t->v.i);
        break;
    case K_DOUBLE:
        printf("double %.3f\n", t->v.d);
        break;
    case K_CHAR:
        printf("char %c\n", t->v.c);
        break;
    default:
        printf("unknown\n");
        break;
    }
}

static const char *color_name(enum color c)
{
    return c == RED ? "red" : c == GREEN ? "green" : c == BLUE ? "blue" : "mixed";
}

int main(void)
{
    struct tagged items[4];
    union bits b;
    enum color c;
    int mask = RED | BLUE;
    int i;

    items[0].kind = K_INT;
    items[0].v.i = 42;
    items[1].kind = K_DOUBLE;
    items[1].v.d = 2.718281828;
    items[2].kind = K_CHAR;
    items[2].v.c = 'Z';
    items[3].kind = K_LAST;
    items[3].v.i = 0;
    for (i = 0; i < 4; i++)
        show(&items[i]);

    printf("K_CHAR=%d K_LAST=%d\n", K_CHAR, K_LAST);
    for (c = RED; c <= BLUE; c = (enum color)(c << 1))
        printf("%d -> %s%s\n", (int)c, color_name(c), (mask & c) ? " (in mask)" : "");
    printf("mask -> %s\n", color_name((enum color)mask));

    b.u = 0x01020304u;
    printf("byte sum = %d\n", b.bytes[0] + b.bytes[1] + b.bytes[2] + b.bytes[3]);
    printf("union size ok: %d\n", sizeof(union value) >= sizeof(double));
    return 0;
}
