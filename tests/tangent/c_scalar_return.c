// radtap: -head scal -vars "a b c"
// sizes: k=3
// Scalar C function returning double; by-value arguments, const-qualified
// inputs a, b and a const local; the by-value c is modified locally. No
// -outvars: the return value is the dependent.
double scal(const double a, const double b, double c, int k)
{
    double t = a * b - c / (1.0 + a);
    const double u = t * t + 0.5 * c;
    int i;
    for (i = 0; i < k; i++)
        t = t * 0.9 + u / (1.0 + i);
    c = c * a;
    return t + c - 0.2 * a / b + (double)k * 0.1 * u;
}
