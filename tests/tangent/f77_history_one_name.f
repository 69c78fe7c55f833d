C radtap: -head "STEPR(Y)/(Y)"
C sizes: N=3
C     ODEPACK's DSTODE shape once the user follows radtap's advice for
C     edge_refused/b_f77_one_array_two_names.f: the call still passes the
C     history array twice, CALL STEP(N, W(LYH), N, W(LYH)), as YH(NYH,*)
C     and YH1(*), but the step now addresses YH1's elements through YH
C     (YH1(I) is YH(MOD(I-1,NYH)+1, (I-1)/NYH+1)) and never touches YH1.
C     Nothing is shared through a dummy the callee does not touch *(fixed:
C     the adjoint refused the call as arguments that may share memory)*.
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
         Y(I) = W(LYH+I-1)*W(LYH+N+I-1)
   20 CONTINUE
      END

      SUBROUTINE STEP(N, YH, NYH, YH1)
      INTEGER N, NYH, I, J, K
      DOUBLE PRECISION YH(NYH,*), YH1(*)
      DO 10 I = 1, N
         K = MOD(I-1,NYH) + 1
         J = (I-1)/NYH + 1
         YH(K,J) = YH(K,J) + YH(K,J+1)
   10 CONTINUE
      DO 20 I = 1, N
         YH(I,2) = YH(I,2)*YH(I,1)
         YH(I,1) = YH(I,1) + 0.5D0*YH(I,2)
   20 CONTINUE
      END
