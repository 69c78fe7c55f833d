C radtap: -head "RESID(FNORM)/(X)"
C sizes: N=4 LWA=12
C     Pieces of one work array that overlap: WA(2) is inside the N elements
C     FCN reaches from WA(1). The adjoint would update one through the other:
C     refused at the call (disjoint pieces, WA(1) and WA(N+1), are taken).
      SUBROUTINE RESID(N, X, WA, LWA, FNORM)
      INTEGER N, LWA
      DOUBLE PRECISION X(N), WA(LWA), FNORM
      INTEGER I
      DO 5 I = 1, N
         WA(I) = X(I)
    5 CONTINUE
      CALL FCN(N, WA(1), WA(2))
      FNORM = 0.0D0
      DO 30 I = 1, N + 1
         FNORM = FNORM + WA(I)**2
   30 CONTINUE
      RETURN
      END

      SUBROUTINE FCN(N, X, F)
      INTEGER N
      DOUBLE PRECISION X(N), F(N)
      INTEGER I
      DO 10 I = 1, N
         F(I) = 0.7D0 * X(I)**2 - COS(X(I))
   10 CONTINUE
      RETURN
      END
