// radtap: -head tern -vars "x" -outvars "y"
// sizes: x=2 y=2
// ?: with calls on both branches and in the condition (pure helpers). A whole value that is
// a conditional becomes an `if` (`il::ternary`); inside a larger value it stays refused.
static double sq(double t)
{
    return t * t;
}

static double cube(double t)
{
    return t * t * t;
}

void tern(const double x[2], double y[2])
{
    y[0] = (x[0] > 0.0) ? sq(x[0]) + x[1] : cube(x[1]);
    y[1] = (sq(x[1]) < 10.0 ? cube(x[0]) : sq(x[0])) * (x[1] < 0.0 ? 1.0 : x[1]);
}
