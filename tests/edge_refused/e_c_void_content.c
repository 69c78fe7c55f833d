// radtap: -head "rhs(ydot)/(y)"
// A solver's vector type whose data sits behind an untyped pointer, as SUNDIALS' N_Vector
// (`content` is a `void *`, cast to the serial content record to reach `data`). The zones do
// not follow memory through `void *`: before, the head was accepted with two AD060 warnings
// and a derivative that was identically zero. Refused at the cast.
typedef double real_t;
struct vec_content { long length; int own; real_t *data; };
typedef struct vec_content *VecContent;
typedef struct generic_vec *Vec; /* before the body, as SUNDIALS declares N_Vector */
struct generic_vec { void *content; void *ops; };
#define VDATA(v) (((VecContent)(v->content))->data)
#define ITH(v, i) VDATA(v)[(i) - 1]

int rhs(real_t t, Vec y, Vec ydot, void *user_data)
{
    real_t y1 = ITH(y, 1), y2 = ITH(y, 2), y3 = ITH(y, 3);
    real_t r1 = -0.04 * y1 + 1.0e4 * y2 * y3;
    real_t r3 = 3.0e7 * y2 * y2;
    ITH(ydot, 1) = r1;
    ITH(ydot, 3) = r3;
    ITH(ydot, 2) = -r1 - r3;
    return 0;
}
