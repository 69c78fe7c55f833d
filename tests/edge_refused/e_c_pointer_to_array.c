// radtap: -head p8 -vars "a" -outvars "y"
// A local pointer to rows of a 2-D argument: its derivative was not followed (tangent terms dropped).
void p8(double a[][4], double *y)
{
    double (*r)[4] = a + 1;
    *y = r[0][1] * a[0][2] + r[1][3];
}
