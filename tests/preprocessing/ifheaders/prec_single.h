#ifndef PREC_SINGLE_H
#define PREC_SINGLE_H
typedef float real;
#define REAL_ONE 1.0f
#endif
