/* Types, prototypes, a macro and an extern global of c_header_types.c. */
#ifndef C_HEADER_TYPES_H
#define C_HEADER_TYPES_H

#define HALF 0.5

typedef struct {
    double gamma;
    int m;
} Wishart;

struct point {
    double x, y;
};

typedef struct point Point;

double log_wishart(const Wishart *w, int n, const double *x);
void shift(Point *p, double s);

extern double wscale;

#endif
