// radtap: -head wsum -vars "a" -outvars "x"
// Array parameters and pointers: w is a const (passive) weight array, p = &a[0]
// is a local pointer into a, q = x aliases x. Pointer analysis must find p -> a
// and q -> x: x becomes active through *(x + i) and q[i] writes, w never does.
// a is TBR (a*a) and *p = 2.0 overwrites a[1], whose new value *q = *q * *p
// needs: the overwrite is recorded, and a stays varied (partial write).
void wsum(int n, double *x, const double *w, double *a)
{
    double *p = &a[0];
    double *q;
    int i;
    for (i = 0; i < n; i++) {
        *(x + i) = w[i] * *(p + i) * *(p + i);
    }
    p++;
    *p = 2.0;
    q = x;
    *q = *q * *p;
    for (i = 1; i < n; i++) {
        q[i] = q[i] + w[i] * q[i - 1];
    }
}
