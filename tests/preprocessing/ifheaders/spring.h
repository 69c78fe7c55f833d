#ifndef SPRING_H
#define SPRING_H
#if defined(SINGLE_PRECISION)
#include "prec_single.h"
#else
#include "prec_double.h"
#endif
typedef struct { real k; real rest; } spring_t;
real chain_energy(const spring_t *s, const real *x, int n);
#endif
