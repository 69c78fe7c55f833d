C radtap: -head CHEAD -vars "X" -outvars "Y"
C sizes: N=4
C COMMON /ACT/ carries active values: CHEAD writes A, B from X, CSTEP
C reads them and writes the array C back into the COMMON block, which
C CHEAD then reads to form Y. Labelled DO loops in both routines.
      SUBROUTINE CHEAD(N, X, Y)
      INTEGER N
      DOUBLE PRECISION X(N), Y
      DOUBLE PRECISION A, B, C(10)
      COMMON /ACT/ A, B, C
      INTEGER I
      A = X(1)*X(2)
      B = SIN(X(3)) + X(N)
      CALL CSTEP(N)
      Y = 0.0D0
      DO 10 I = 1, N
         Y = Y + C(I)*X(I)
   10 CONTINUE
      END

      SUBROUTINE CSTEP(N)
      INTEGER N
      DOUBLE PRECISION A, B, C(10)
      COMMON /ACT/ A, B, C
      INTEGER I
      DO 20 I = 1, N
         C(I) = A*DBLE(I) + B**2/DBLE(I)
   20 CONTINUE
      END
