C     radtap: -head "SOLVE(Y)/(X)"
C     sizes: N=4
C     The norm written with ASSIGN and an assigned GOTO, called by the head: refused at each
C     ASSIGN in every mode.
      SUBROUTINE SOLVE(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I)*X(I)
   10 CONTINUE
      S = XNRM2(N, X)
      DO 20 I = 1, N
         Y(I) = SIN(X(I))*S + X(I)
   20 CONTINUE
      RETURN
      END
      DOUBLE PRECISION FUNCTION XNRM2(N, DX)
      INTEGER N, I
      DOUBLE PRECISION DX(N), SUM
      INTEGER NEXT
      SUM = 0.0D0
      I = 1
      ASSIGN 30 TO NEXT
   20 IF (I .GT. N) GO TO 50
      GO TO NEXT, (30, 40)
   30 ASSIGN 40 TO NEXT
   40 SUM = SUM + DX(I)**2
      I = I + 1
      GO TO 20
   50 XNRM2 = SQRT(SUM)
      RETURN
      END
