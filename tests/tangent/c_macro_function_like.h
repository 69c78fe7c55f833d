#ifndef C_MACRO_FUNCTION_LIKE_H
#define C_MACRO_FUNCTION_LIKE_H
#define N 3
#define A(i) a[(i)]
#endif
