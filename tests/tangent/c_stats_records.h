#ifndef C_STATS_RECORDS_H
#define C_STATS_RECORDS_H
/* Running moments of a sample, returned through a pointer and copied whole. */
typedef struct {
    double a, b;
    int count;
} Moments;
typedef struct {
    Moments lo, hi;
    double weight;
} Split;
void stats_objective(int n, const double *x, double scale, double *w, double *f);
#endif
