/* Prototypes of c_spline_fit.c. */
#ifndef C_SPLINE_FIT_H
#define C_SPLINE_FIT_H

void thomas_solve(int n, const double *a, const double *b, const double *c,
                  const double *r, double *x);
double spline_energy(int n, const double *y, double h);

#endif
