C radtap: -head "STEPR(Y)/(Y)"
C sizes: N=3
C     ODEPACK's DSTODE shape: the history array is passed twice,
C     CALL STEP(N, W(LYH), N, W(LYH)), as YH(NYH,*) and YH1(*): the step
C     predicts through YH1 (YH1(I) = YH1(I) + YH1(I+NYH)) and corrects
C     through YH. One array under two names that it writes: a real
C     alias, not a chance overlap a temporary would cure. Refused at the
C     call in adjoint mode, naming both dummies and what to change (the
C     tangent follows the primal and is right).
      SUBROUTINE STEPR(N, Y)
      INTEGER N, I, LYH
      DOUBLE PRECISION Y(N), W(40)
      LYH = 5
      DO 10 I = 1, N
         W(LYH+I-1) = Y(I)
         W(LYH+N+I-1) = 0.1D0*Y(I)*Y(I)
   10 CONTINUE
      CALL STEP(N, W(LYH), N, W(LYH))
      DO 20 I = 1, N
         Y(I) = W(LYH+I-1)
   20 CONTINUE
      END

      SUBROUTINE STEP(N, YH, NYH, YH1)
      INTEGER N, NYH, I
      DOUBLE PRECISION YH(NYH,*), YH1(*)
      DO 10 I = 1, N
         YH1(I) = YH1(I) + YH1(I+NYH)
   10 CONTINUE
      DO 20 I = 1, N
         YH(I,2) = YH(I,2)*YH(I,1)
         YH(I,1) = YH(I,1) + 0.5D0*YH(I,2)
   20 CONTINUE
      END
