#include <math.h>
#include "cep.h"
CEP_API double cep_poly(double x)
{
    return ((0.5 * x + 1.25) * x - 0.75) * x + exp(-x);
}
