// radtap: -head sb -vars "x" -outvars "y"
// sizes: x=2 y=1
// A struct brace initializer with active values, the struct having an integer member: the
// list is positional over all members, the derivative struct has only the active ones.
typedef struct {
    double a;
    int tag;
    double b;
} Rec;

void sb(const double *x, double *y)
{
    Rec r = {x[0] * x[1], 3, x[1]};
    *y = r.a * r.b + r.tag;
}
