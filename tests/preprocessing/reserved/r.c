/* A name reserved to the implementation (C11 7.1.3), as a system header's macro leaves it
 * after expansion: glibc's isprint(c) is `(*__ctype_b_loc())[(int)(c)] & _ISprint`, whose
 * enumerator radtap did not always find (llama2.c's run.c: AD030 for the whole file). */
int printable(int c, int mask)
{
    return (c & _ISmine) != 0 && (mask & __reserved_flag) != 0;
}

void sq(double x, double *y)
{
    *y = x * x;
}
