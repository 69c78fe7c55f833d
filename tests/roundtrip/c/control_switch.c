/* switch with fallthrough, default in the middle, nested switch, enums. */
#include <stdio.h>

enum op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG };

static double eval(enum op o, double a, double b)
{
    switch (o) {
    case OP_ADD:
        return a + b;
    case OP_SUB:
        return a - b;
    case OP_MUL:
        return a * b;
    case OP_DIV:
        if (b == 0.0)
            return 0.0;
        return a / b;
    default:
        return -a;
    }
}

static int days_in_month(int m, int leap)
{
    int d;
    switch (m) {
    case 2:
        d = leap ? 29 : 28;
        break;
    case 4: case 6: case 9:
    case 11:
        d = 30;
        break;
    default:
        d = 31;
    }
    return d;
}

static int fallthrough_count(int start)
{
    int n = 0;
    switch (start) {
    case 0:
        n++;
        /* fall through */
    case 1:
        n++;
        /* fall through */
    default:
        n += 10;
        /* fall through */
    case 3:
        n++;
        break;
    case 4:
        n = -1;
    }
    return n;
}

static const char *grade(int score)
{
    switch (score / 10) {
    case 10:
    case 9: return "A";
    case 8: return "B";
    case 7: return "C";
    case 6: return "D";
    }
    return "F";
}

int main(void)
{
    int i, m, total = 0;
    char c;
    const char *text = "a1-b2+c3";

    for (i = OP_ADD; i <= OP_NEG; i++)
        printf("eval(%d) = %.3f\n", i, eval((enum op)i, 7.0, 2.0));
    for (m = 1; m <= 12; m++)
        total += days_in_month(m, 0);
    printf("days (non-leap) = %d, feb leap = %d\n", total, days_in_month(2, 1));
    for (i = 0; i <= 5; i++)
        printf("fallthrough(%d) = %d\n", i, fallthrough_count(i));
    printf("grades: %s %s %s %s %s\n", grade(100), grade(85), grade(72), grade(64), grade(12));

    for (i = 0; (c = text[i]) != '\0'; i++) {
        switch (c) {
        case '+':
        case '-':
            printf("[op %c]", c);
            break;
        default:
            switch (c >= '0' && c <= '9') {
            case 1:
                printf("[digit %d]", c - '0');
                break;
            case 0:
                printf("[letter %c]", c);
                break;
            }
        }
    }
    printf("\n");
    return 0;
}
