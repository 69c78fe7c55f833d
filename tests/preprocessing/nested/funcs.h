#ifndef FUNCS_H
#define FUNCS_H
#include "base.h"
real_t rosen(int n, const real_t *x);
#endif
