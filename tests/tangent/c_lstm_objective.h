/* Prototypes of c_lstm_objective.c (ADBench-style LSTM). */
#ifndef C_LSTM_OBJECTIVE_H
#define C_LSTM_OBJECTIVE_H

double sigmoid(double x);
void lstm_model(int hsize, const double *weight, const double *bias,
                double *state, const double *input);
void lstm_predict(int l, int b, const double *w, const double *w2,
                  double *s, const double *x, double *x2);
void lstm_objective(int l, int c, int b, const double *main_params,
                    const double *extra_params, double *state,
                    const double *sequence, double *loss);

#endif
