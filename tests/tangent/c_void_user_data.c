// radtap: -head "rober_rhs(ydot)/(y)"
// sizes: y=3 ydot=3
/* The right-hand side of a stiff chemical system in the calling shape of ODE solvers'
   callbacks: the state as an array, the rate constants behind an untyped `void *user_data`
   the solver passes through (cast to the caller's record). The constants are not
   independents, so reading them through `void *` is fine: only an independent or dependent
   reached through `void *` is refused (edge_refused/e_c_void_content.c). Without user data
   the callback falls back on its own defaults. */
typedef struct { double k1, k2, k3; } Rates;

static const Rates default_rates = { 0.04, 1.0e4, 3.0e7 };

int rober_rhs(double t, const double *y, double *ydot, void *user_data)
{
    const Rates *r = user_data ? (const Rates *) user_data : &default_rates;
    double a = -r->k1 * y[0] + r->k2 * y[1] * y[2];
    double c = r->k3 * y[1] * y[1];
    ydot[0] = a;
    ydot[2] = c;
    ydot[1] = -a - c + 0.0 * t;
    return 0;
}
