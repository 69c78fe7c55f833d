/* Operator trees tree-sitter-c alone gets wrong or that the frontend re-reads: (b) - x * 2 with a
   variable (not a cast), typedef casts before - and +, sizeof (T) - 1, -a[1]++ (postfix binds
   tighter than unary minus), parenthesized assignment and ++ targets. */
#include <stdio.h>
typedef double real;
typedef int idx;
struct s { double x; double *p; };
int main(void) {
    double a[4] = {1.5, 2.5, 3.5, 4.5}; double *p = a; double **pp = &p; int n = 7, i = 2;
    struct s v = {2.0, a}; struct s *sp = &v;
    double b = 3.0, x = 0.5, r;
    r = -(b); printf("%g\n", r);
    r = !(n) + ~n; printf("%g\n", r);
    r = *p++; printf("%g %g\n", r, *p);
    r = -a[1]++ ; printf("%g\n", r);
    r = sizeof x + sizeof(int) * n - sizeof (real) - sizeof(idx); printf("%g\n", r);
    r = (double)n / 2 + (real)n / 4 + (idx)(x * 10) - 1; printf("%g\n", r);
    r = *&(a)[0] + **pp + (sp)->x - 1 + (*sp).p[1] * -(sp)->p[2]; printf("%g\n", r);
    r = (b) * -x + (b) - -x + (b) / x - (n) % 3 + (n << 2); printf("%g\n", r);
    r = (n) & 3 | (i) ^ 1 && (n) || !(i); printf("%g\n", r);
    r = n > 3 ? (b) - x * 2 : (x) + b; printf("%g\n", r);
    r = (real)(idx)(b * 3.0) - (real) - x * b + (real) + x; printf("%g\n", r);
    r = (b) - (x) - (b) - (x) * (b); printf("%g\n", r);
    r = - - x + - (b) * + (x); printf("%g\n", r);
    r = (b)++ + --(x); printf("%g %g %g\n", r, b, x);
    r = (b) = x * 2; printf("%g\n", r);
    r = (double)(int)x + (idx) - 5 * 2; printf("%g\n", r);
    return 0;
}
