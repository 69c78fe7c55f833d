// radtap: -head reversed -vars "x" -outvars "y" -size x=3 -size y=3
// sizes: x=3 y=3
/* C subscripts written backwards, `1[x]` for `x[1]` and `i[y]` for `y[i]` (legal C: `e1[e2]`
   is `*(e1 + e2)`), read and stored (hunt 13): the array was taken for the subscript, so
   `1[x]` was read as a constant (tangent 0.926 instead of 1.611, the adjoint likewise) and a
   store `1[y] = …` got no derivative. They are put the right way round before the analyses
   (`il::subscripts`). */
void reversed(const double *x, double *y)
{
    int i = 2;
    y[0] = 1[x] * x[0];
    1[y] = x[0] * 2[x] + 0.5;
    i[y] = y[0] * 0[x] + i[x];
}
