C radtap: -head CGHEAD -vars "X" -outvars "Y"
C sizes: N=6 K=2
C Computed GOTO (10, 20, 30) J with J = MOD(I+K,3)+1 and arithmetic IF
C on the integer I-K (three-way branch), inside a labelled DO loop whose
C branches jump to the shared terminal CONTINUE.
      SUBROUTINE CGHEAD(N, K, X, Y)
      INTEGER N, K, I, J
      DOUBLE PRECISION X(N), Y
      Y = 1.0D0
      DO 50 I = 1, N
         J = MOD(I + K, 3) + 1
         GOTO (10, 20, 30) J
   10    Y = Y + X(I)**2
         GOTO 40
   20    Y = Y + SIN(X(I))
         GOTO 40
   30    Y = Y*0.5D0 + X(I)
   40    IF (I - K) 41, 42, 43
   41    Y = Y + 0.1D0*X(I)
         GOTO 50
   42    Y = Y*X(I)
         GOTO 50
   43    Y = Y - 0.01D0*X(I)**2
   50 CONTINUE
      END
