// radtap: -head crec -vars "x" -outvars "y"
// sizes: y=1
// a recursive helper (depth from an int) and a recursive product.
static double rp(double t, int k)
{
    if (k == 0)
        return 1.0;
    return t * rp(t, k - 1) + 0.1;
}

void crec(double x, double *y)
{
    *y = rp(x, 4) + rp(x * x, 2);
}
