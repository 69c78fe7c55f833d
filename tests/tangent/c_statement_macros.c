// radtap: -head robust -vars "x" -outvars "y"
// sizes: n=6 x=6 y=2
// Function-like macros used as statements, as Numerical Recipes and robust estimators write
// them: a brace-block SWAP with its own temporary, the `do { ... } while (0)` idiom (one with
// a `break` that leaves it, not the loop around the use), an `if` body and a statement list. They were kept as calls of an unknown function taking its
// arguments by value, so the swaps moved the values and not their derivatives (silently
// wrong, both modes agreeing). They are now expanded where they stand, as cpp does.
#define SWAP(a, b) { double t_ = (a); (a) = (b); (b) = t_; }
#define SCALE(v, s) do { (v) *= (s); } while (0)
#define CLIP_NEG(v) if ((v) < 0.0) (v) = 0.1 * (v)
#define ACC2(s, v) (s) += (v); (s) += 0.5 * (v) * (v);
#define CLIP_ADD(acc, v) do { if ((v) > 2.0) break; (acc) += (v) * (v); } while (0)

static void insertion_sort(int n, double *w)
{
    int i, j;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && w[j - 1] > w[j]; j--)
            SWAP(w[j - 1], w[j]);
}

void robust(int n, const double *x, double *y)
{
    double w[16];
    double s = 0.0, lo;
    int i;
    for (i = 0; i < n; i++)
        w[i] = x[i] * x[i] + 3.0 * (n - i);
    insertion_sort(n, w);
    for (i = 0; i < n; i++) {
        SCALE(w[i], 1.0 + 0.1 * x[i]);
        ACC2(s, w[i] * 0.01);
    }
    for (i = 0; i < n; i++) {
        // `break` leaves the macro's do-while(0), not this loop.
        CLIP_ADD(s, x[i] + 2.0 * (i % 2));
        s = s + 0.1 * x[i];
    }
    lo = w[0] - 10.0;
    CLIP_NEG(lo);
    y[0] = 0.5 * (w[n / 2 - 1] + w[n / 2]) + lo;
    y[1] = s;
}
