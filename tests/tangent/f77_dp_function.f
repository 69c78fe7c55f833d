C radtap: -head FHEAD -vars "X A" -outvars "Y"
C sizes: N=5
C DOUBLE PRECISION FUNCTION POLY (Horner, DO loop with step -1) called
C from the head in an expression, once with X and once with 0.5D0*X.
      DOUBLE PRECISION FUNCTION POLY(N, A, T)
      INTEGER N, I
      DOUBLE PRECISION A(N), T
      POLY = A(N)
      DO 10 I = N-1, 1, -1
         POLY = POLY*T + A(I)
   10 CONTINUE
      END

      SUBROUTINE FHEAD(N, X, A, Y)
      INTEGER N
      DOUBLE PRECISION X, A(N), Y
      DOUBLE PRECISION POLY
      EXTERNAL POLY
      Y = 0.1D0*POLY(N, A, X) + 0.5D0*POLY(N, A, 0.5D0*X)**2
      END
