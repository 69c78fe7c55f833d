// radtap: -head omp_flux -vars "u" -outvars "f"
// sizes: n=10 u=n f=n
// Face values of a 1-D finite-volume sweep, the last face's value kept by `lastprivate(q)`
// for the boundary flux after the loop (issue 45: refused in the adjoint before). The
// adjoint gives q's adjoint after the loop to the last iteration only.
void omp_flux(int n, const double *u, double *f)
{
    double q = 0.0;
    int i;
#pragma omp parallel for lastprivate(q)
    for (i = 0; i < n - 1; i++) {
        q = 0.5 * (u[i] + u[i + 1]) + 0.1 * u[i] * u[i + 1];
        f[i] = q * q;
    }
    f[n - 1] = 2.0 * q + u[0] * q;
}
