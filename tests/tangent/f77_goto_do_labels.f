C radtap: -head GLOOP -vars "X" -outvars "Y S"
C sizes: N=6
C IF/GOTO loop with labels (test at label 10, back edge GOTO 10) doing
C recurrence arithmetic on arrays, then a labelled DO 40 ... 40 CONTINUE
C whose body may jump to its terminal label (never taken: Y(I) >= 0.5).
      SUBROUTINE GLOOP(N, X, Y, S)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N), S
      I = 1
   10 IF (I .GT. N) GOTO 30
      Y(I) = X(I)**2 + 0.5D0*X(I)
      IF (I .GT. 1) Y(I) = Y(I) + 0.25D0*Y(I-1)*X(I)
      I = I + 1
      GOTO 10
   30 CONTINUE
      S = 0.0D0
      DO 40 I = 1, N
         IF (Y(I) .LT. 0.01D0) GOTO 40
         S = S + SQRT(Y(I)) + DBLE(I)*
     &       Y(I)*0.1D0
   40 CONTINUE
      END
