// radtap: -head gstep -vars "gx" -outvars "gy"
// File-scope globals: gx (independent) reaches gy through accum() and through
// the file-scope static 'saved', written in accum() and read in finish(), so
// saved is active across both functions. gscale is only set from constants
// (passive, never varied); the static local int 'calls' is never active.
double gx;
double gy;
double gscale = 2.0;
static double saved;

static void accum(double v)
{
    static int calls = 0;
    calls++;
    saved = v * v;
    gy = gy + gscale * saved;
    if (calls > 100)
        gscale = 1.0;
}

static void finish(void)
{
    gy = gy + saved;
}

void gstep(void)
{
    int k;
    gy = 0.0;
    gscale = 0.5;
    for (k = 0; k < 3; k++)
        accum(gx + k);
    finish();
}
