// radtap: -head fss -vars "x" -outvars "y"
// A file-scope `static` variable set by a function the derivative calls in the original
// file (`remember`, not `static`, is not copied) and read by the head: the generated file
// would declare `last` again, a copy of its own that `remember` never sets.
static double last;

double remember(double a)
{
    last = a * a;
    return a;
}

void fss(double x, double *y)
{
    double u;
    u = remember(0.5);
    *y = last * x + u;
}
