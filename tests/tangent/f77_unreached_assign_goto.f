C     radtap: -head "SOLVE(Y)/(X)"
C     sizes: N=4
C     ODEPACK's layout: the library file holds an old BLAS DNRM2-style norm written with
C     ASSIGN and an assigned GOTO, which no head here calls (DLSODE never calls DNRM2). Only
C     what the head reaches is refused (fixed: the whole file was refused at the ASSIGN;
C     issue 44 item 4). A head reaching the norm is still refused at each ASSIGN
C     (edge_refused/e_f77_assign_goto_reached.f).
      SUBROUTINE SOLVE(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I)*X(I)
   10 CONTINUE
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
