// radtap: -head lal -vars "x" -outvars "y"
// sizes: y=1
// a pointer to a local scalar and a pointer to an element of a local array:
// writes through them, reads through the names.
void lal(double x, double *y)
{
    double a = 0.0;
    double v[3] = {0.0, 0.0, 0.0};
    double *p = &a;
    double *q = &v[1];
    *p = x * x;
    q[0] = a + x;
    q[1] = *q * x;
    *y = a + v[1] + v[2] + *p;
}
