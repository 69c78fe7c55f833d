/* math.h calls: sin cos exp log sqrt pow fabs fmax fmin atan2 hypot tanh floor ceil fmod. */
#include <stdio.h>
#include <math.h>

#define PI 3.14159265358979323846

static double deg2rad(double deg)
{
    return deg * PI / 180.0;
}

static double logistic(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static double rms(const double *v, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += pow(v[i], 2.0);
    return sqrt(s / n);
}

int main(void)
{
    double angles[5] = {0.0, 30.0, 45.0, 60.0, 90.0};
    double v[4] = {-1.5, 2.25, -3.0, 0.5};
    int i;

    for (i = 0; i < 5; i++) {
        double r = deg2rad(angles[i]);
        printf("%5.1f deg: sin=%.6f cos=%.6f\n", angles[i], sin(r), fabs(cos(r)) < 1e-12 ? 0.0 : cos(r));
    }
    printf("exp(1)=%.6f log(10)=%.6f\n", exp(1.0), log(10.0));
    printf("sqrt(2)=%.6f pow(2,10)=%.1f pow(9,0.5)=%.3f\n", sqrt(2.0), pow(2.0, 10.0), pow(9.0, 0.5));
    printf("fabs(-4.5)=%.2f fmax(3,7)=%.1f fmin(3,7)=%.1f\n", fabs(-4.5), fmax(3.0, 7.0), fmin(3.0, 7.0));
    printf("atan2(1,1)=%.6f atan2(-1,-1)=%.6f\n", atan2(1.0, 1.0), atan2(-1.0, -1.0));
    printf("hypot(3,4)=%.3f tanh(0.5)=%.6f\n", hypot(3.0, 4.0), tanh(0.5));
    printf("floor(-2.5)=%.1f ceil(-2.5)=%.1f floor(2.5)=%.1f ceil(2.5)=%.1f\n",
           floor(-2.5), ceil(-2.5), floor(2.5), ceil(2.5));
    printf("fmod(10,3)=%.2f fmod(-7.5,2)=%.2f\n", fmod(10.0, 3.0), fmod(-7.5, 2.0));
    printf("logistic(0)=%.4f logistic(2)=%.6f\n", logistic(0.0), logistic(2.0));
    printf("rms=%.6f\n", rms(v, 4));
    {
        double x = 0.7;
        double id = sin(x) * sin(x) + cos(x) * cos(x);
        double lg = log(exp(x));
        printf("identity=%.12f log(exp(x))=%.12f\n", id, lg);
        printf("sqrtf=%.4f\n", (double)sqrtf(2.0f));
    }
    return 0;
}
