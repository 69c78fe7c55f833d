// radtap: -head "tri_objective(err)/(us pos)"
// sizes: nc=3 us=2*nc pos=12 err=3*nc
// ADBench hand tracker's barycentric step (hand_objective_complicated): a
// helper takes an array of triangles (records holding an int array) and
// reads a triangle's vertices through `const int *verts = tris[c].verts;`,
// the point's barycentric coordinates through `&us[2 * i]`. A pointer to
// integers carries no derivative, whatever its targets.
typedef struct
{
    int verts[3];
} Triangle;

static void bary(const Triangle *tris, int c, const double *u, const double *pos, double *out)
{
    int j;
    const int *verts = tris[c].verts;
    for (j = 0; j < 3; j++)
    {
        out[j] = u[0] * pos[3 * verts[0] + j] + u[1] * pos[3 * verts[1] + j] +
                 (1.0 - u[0] - u[1]) * pos[3 * verts[2] + j] * pos[3 * verts[2] + j];
    }
}

void tri_objective(int nc, const double *us, const double *pos, double *err)
{
    int i;
    Triangle tri[2];
    for (i = 0; i < 2; i++)
    {
        tri[i].verts[0] = i;
        tri[i].verts[1] = i + 1;
        tri[i].verts[2] = i + 2;
    }
    for (i = 0; i < nc; i++)
    {
        bary(tri, i % 2, &us[2 * i], pos, &err[3 * i]);
    }
}
