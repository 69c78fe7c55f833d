#ifndef CEP_H
#define CEP_H
#define CEP_API
CEP_API double cep_poly(double x);
#endif
