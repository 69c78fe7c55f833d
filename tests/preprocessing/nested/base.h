#ifndef BASE_H
#define BASE_H
typedef double (*objfun)(int n, const double *x, void *data);
typedef double real_t;
#endif
