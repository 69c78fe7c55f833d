// radtap: -head omp_matmul -vars "x w" -outvars "xout"
// sizes: n=6 d=5 xout=d x=n w=30
// llama2.c's `matmul` shape (issue 45): W (d,n) @ x under `#pragma omp parallel for
// private(i)`, a block-scope accumulator and an inner counter declared in its `for`. In the
// reversed loop, w̄[i*n + j] is row i's own; the increments to x̄ (which every iteration
// touches) are atomic.
void omp_matmul(double *xout, const double *x, const double *w, int n, int d)
{
    int i;
#pragma omp parallel for private(i)
    for (i = 0; i < d; i++) {
        double val = 0.0;
        for (int j = 0; j < n; j++) {
            val += w[i * n + j] * x[j];
        }
        xout[i] = val * (1.0 + 0.1 * val);
    }
}
