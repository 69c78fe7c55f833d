#ifndef VEC_H
#define VEC_H
typedef double scal;
#endif
