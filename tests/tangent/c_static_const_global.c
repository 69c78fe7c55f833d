// radtap: -head advance -vars "y" -outvars "y"
// sizes: y=2
/* A struct member array passed down (`step(s.y)`): its address was unknown to the
   points-to analysis, so the call was taken to write every global and pointee but not `s`:
   the checkpoint recorded the head's `y` and the `static const` global `c` instead of `s`
   (a wrong adjoint, and popping into `c`, in read-only memory, crashed). Now `s.y` points
   into `s`; and a `const` object of static storage is never taken as written (no write
   through a pointer or a call reaches it). Vector mode refused the member array argument
   while its derivative was one record per direction (it wrote `sd.y`, which did not
   compile); one derivative record holding the directions innermost (`double y[2][NBDirsMax]`)
   passes `sd.y` like an array (issue 47). */
typedef struct {
    double y[2];
} pair_t;

static const double c = 0.5;

static void damp(double *y)
{
    y[0] *= c * y[1];
    y[1] = y[1] - c * y[0] * y[0];
}

static void step(double *y)
{
    damp(y);
}

void advance(double *y)
{
    pair_t s;
    s.y[0] = y[0];
    s.y[1] = y[1];
    step(s.y);
    step(s.y);
    y[0] = s.y[0] * s.y[1];
    y[1] = s.y[1];
}
