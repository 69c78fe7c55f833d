// radtap: -head horner -vars "c x" -outvars "p"
// Horner evaluation written with goto and labels instead of a loop statement.
// At label top the entry and the back edge 'goto top' merge: acc is varied
// there from c (entry) and from x (back edge), and i is diff-live control.
// acc = acc*x + c[i] uses acc and x in its derivative, so acc is TBR
// (recorded at each overwrite); c is used only linearly (never TBR).
void horner(int n, const double *c, double x, double *p)
{
    int i = n - 1;
    double acc = c[n - 1];
top:
    if (i <= 0)
        goto done;
    i--;
    acc = acc * x + c[i];
    goto top;
done:
    *p = acc;
}
