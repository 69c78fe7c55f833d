/* LSTM objective in the style of ADBench's C objective (lstm.h): the sizes travel in a
   typedef'd struct; parameters, state and the character sequence are flat malloc'd arrays. */
#ifndef ADBENCH_LSTM_H
#define ADBENCH_LSTM_H

typedef struct {
    int l; /* layers */
    int c; /* characters in the sequence */
    int b; /* hidden size (= alphabet size) */
} LstmSizes;

void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    double *state, const double *sequence, double *loss);

#endif
