// radtap: -head head -vars "p" -outvars "e"
// The adjoint of a whole-struct copy goes member by member; a member that is a C array
// cannot be added or zeroed as a whole (the output did not compile): refused.
typedef struct { double a; double s[2]; } P;
void head(P *p, double *e)
{
    P q;
    q = *p;
    *e = q.a * q.s[0] * q.s[1];
}
