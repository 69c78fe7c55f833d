// radtap: -head parops -vars "x y" -outvars "z"
// sizes: z=3
// Parenthesized variables before `-`, `+`, `*` and `&`: `(f) - x*y` subtracts (tree-sitter
// alone reads it as a cast of `-x` to a type `f`). A cast needs a type name in scope: a
// local variable shadows the typedef `real`, and `(real) - y * x` is still a cast where
// `real` is the type.
#define K 2

typedef double real;

static double sub(double x, double y)
{
    double f = y * y;
    return (f) - x * y;
}

void parops(double x, double y, double *z)
{
    double f = x * y + 1.0;
    double g = (f) + (x) - y * x;
    double h = (g) * x - (y) - -x * f;
    double w = (K) - x * y + (f) -2 * x;
    double c = (real) - y * x;
    {
        double real = x * x;
        c = c + (real) - y * real;
    }
    z[0] = sub(x, y) + g * (f) / y;
    z[1] = h + (h) * (g) + w;
    z[2] = c * (x) - (real) + y;
}
