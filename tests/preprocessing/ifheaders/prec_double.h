#ifndef PREC_DOUBLE_H
#define PREC_DOUBLE_H
typedef double real;
#define REAL_ONE 1.0
#endif
