// radtap: -head generated -vars "x y" -outvars "r"
// sizes: n=3 x=6 r=1
/* Machine-generated C (a computer-algebra system's output, issue 43): one statement of 240
   parenthesised operands, `(x[0]) - (x[1]) * (y) + (c->w[2]) * ...`. Each `(x[i]) - ...` could
   be a cast of `-...` to a type `x`: tree-sitter kept both readings and the parse time grew
   faster than the square of the statement's length (4,000 operands: 13 s). Settled before the
   parse (`frontends/src/c/parens.rs`): the parentheses of plain operands are blanked, casts
   such as `(double)(n)` stay. */

struct coeffs {
    double w[3];
};

static const struct coeffs table = {{0.5, -1.25, 2.0}};

void generated(int n, const double *x, double y, double *r)
{
    const struct coeffs *c = &table;
    *r = (x[0]) * (x[1]) - (x[1]) * (y) + (double)(n) * (x[2]) - (x[3]) * (y) + (c->w[1]) *
        (x[4]) - (x[5]) * (x[0]) + (x[0]) * (y) - (c->w[1]) * (x[1]) + (x[2]) * (y) - (x[3]) *
        (x[4]) + (x[4]) * (y) - (x[5]) * (y) + (x[0]) * (x[1]) - (x[1]) + (x[2]) * (y) - (x[3])
        * (y) + (double)(n) * (x[4]) - (x[5]) + (c->w[0]) * (x[0]) - (x[1]) * (x[2]) + (x[2]) -
        (x[3]) * (y) + (x[4]) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (y) + (x[2]) * (x[3]) -
        (x[3]) + (x[4]) * (y) - (c->w[2]) * (x[5]) + (double)(n) * (x[0]) - (x[1]) * (x[2]) +
        (c->w[2]) * (x[2]) - (x[3]) * (y) + (x[4]) * (y) - (x[5]) * (y) + (double)(n) * (x[0])
        - (x[1]) * (x[2]) + (x[2]) * (x[3]) - (c->w[0]) * (x[3]) + (x[4]) * (x[5]) - (x[5]) *
        (y) + (x[0]) - (double)(n) * (x[1]) + (x[2]) * (y) - (c->w[0]) * (x[3]) + (c->w[1]) *
        (x[4]) - (x[5]) + (x[0]) - (x[1]) * (y) + (x[2]) - (x[3]) * (y) + (x[4]) * (x[5]) -
        (x[5]) + (x[0]) * (y) - (x[1]) * (x[2]) + (x[2]) * (y) - (double)(n) * (x[3]) + (x[4])
        - (c->w[2]) * (x[5]) + (x[0]) - (x[1]) * (x[2]) + (double)(n) * (x[2]) - (c->w[0]) *
        (x[3]) + (c->w[1]) * (x[4]) - (x[5]) * (x[0]) + (x[0]) - (x[1]) + (x[2]) * (x[3]) -
        (double)(n) * (x[3]) + (x[4]) * (y) - (x[5]) + (double)(n) * (x[0]) - (x[1]) + (x[2]) -
        (x[3]) * (y) + (x[4]) * (x[5]) - (double)(n) * (x[5]) + (x[0]) * (y) - (x[1]) * (x[2])
        + (x[2]) * (y) - (x[3]) * (y) + (x[4]) * (y) - (x[5]) + (x[0]) * (y) - (x[1]) * (y) +
        (x[2]) * (x[3]) - (x[3]) + (x[4]) * (y) - (x[5]) * (x[0]) + (c->w[0]) * (x[0]) - (x[1])
        + (x[2]) - (x[3]) + (x[4]) * (y) - (x[5]) * (x[0]) + (x[0]) * (x[1]) - (x[1]) + (x[2])
        - (x[3]) * (y) + (x[4]) * (y) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (x[2]) +
        (c->w[2]) * (x[2]) - (x[3]) * (y) + (x[4]) * (y) - (x[5]) * (x[0]) + (x[0]) * (x[1]) -
        (c->w[1]) * (x[1]) + (x[2]) - (double)(n) * (x[3]) + (c->w[1]) * (x[4]) - (double)(n) *
        (x[5]) + (double)(n) * (x[0]) - (x[1]) * (y) + (x[2]) - (x[3]) + (x[4]) - (x[5]) +
        (x[0]) * (x[1]) - (x[1]) * (x[2]) + (x[2]) * (y) - (double)(n) * (x[3]) + (x[4]) * (y)
        - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (y) + (x[2]) * (x[3]) - (x[3]) * (y) + (x[4])
        * (y) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (x[2]) + (x[2]) * (y) - (x[3]) +
        (double)(n) * (x[4]) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (x[2]) + (x[2]) * (x[3])
        - (x[3]) * (y) + (x[4]) - (x[5]) + (x[0]) * (x[1]) - (x[1]) * (x[2]) + (x[2]) * (y) -
        (x[3]) * (y) + (x[4]) * (x[5]) - (x[5]) * (y) + (x[0]) - (x[1]) * (y) + (x[2]) * (y) -
        (x[3]) + (c->w[1]) * (x[4]) - (x[5]) * (y) + (c->w[0]) * (x[0]) - (x[1]) * (y) +
        (c->w[2]) * (x[2]) - (x[3]) + (x[4]) - (double)(n) * (x[5]) + (x[0]) * (y) - (x[1]) *
        (x[2]) + (x[2]) * (y) - (x[3]) + (c->w[1]) * (x[4]) - (x[5]) + (x[0]) * (x[1]) - (x[1])
        * (y) + (x[2]) - (x[3]) + (x[4]) - (x[5]) + (x[0]) - (x[1]) + (x[2]) * (y) - (c->w[0])
        * (x[3]) + (x[4]) * (x[5]) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (y) + (x[2]) * (y)
        - (double)(n) * (x[3]) + (x[4]) - (x[5]) * (x[0]) + (x[0]) - (x[1]) + (x[2]) - (x[3]) *
        (x[4]) + (x[4]) * (y) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (y) + (double)(n) *
        (x[2]) - (x[3]) + (x[4]) - (x[5]) * (x[0]) + (double)(n) * (x[0]) - (x[1]) + (x[2]) *
        (y) - (double)(n) * (x[3]) + (x[4]) - (x[5]) + (x[0]) - (x[1]) * (x[2]) + (x[2]) * (y)
        - (x[3]) + (x[4]) * (x[5]) - (x[5]) + (x[0]) - (x[1]) * (x[2]) + (x[2]) * (x[3]) -
        (x[3]) + (x[4]) - (x[5]) * (y) + (x[0]) * (y) - (x[1]) * (y) + (x[2]) - (x[3]) + (x[4])
        * (y) - (x[5]) + (x[0]) - (double)(n) * (x[1]) + (x[2]) * (x[3]) - (c->w[0]) * (x[3]) +
        (x[4]) * (y) - (x[5]) * (y) + (x[0]) - (double)(n) * (x[1]) + (c->w[2]) * (x[2]) -
        (x[3]) + (x[4]) * (x[5]) - (x[5]) + (x[0]) - (x[1]) * (y) + (x[2]) * (y) - (x[3]) * (y)
        + (x[4]) * (y) - (c->w[2]) * (x[5]);
}
