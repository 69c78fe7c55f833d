C radtap: -head "RESID(FNORM)/(X)"
C sizes: N=4 LWA=12
C     MINPACK style: one work array carved into pieces passed to routines
C     that write them, WA(1), WA(N+1), WA(2*N+1) (disjoint: each dummy has N
C     elements); two elements for scalar dummies, WA(2*N+1) and WA(N); a
C     GOTO loop.
      SUBROUTINE RESID(N, X, FVEC, WA, LWA, FNORM)
      INTEGER N, LWA
      DOUBLE PRECISION X(N), FVEC(N), WA(LWA), FNORM
      INTEGER ITER, I
      ITER = 0
      DO 5 I = 1, N
         WA(I) = X(I)
    5 CONTINUE
   10 CONTINUE
      ITER = ITER + 1
      CALL FCN(N, WA(1), WA(N+1))
      CALL UPD(N, WA(1), WA(N+1), WA(2*N+1))
      CALL SCL(WA(2*N+1), WA(N))
      IF (ITER .LT. 3) GOTO 10
      DO 20 I = 1, N
         FVEC(I) = WA(N+I) * WA(2*N+I)
   20 CONTINUE
      FNORM = 0.0D0
      DO 30 I = 1, N
         FNORM = FNORM + FVEC(I)**2
   30 CONTINUE
      FNORM = SQRT(FNORM)
      RETURN
      END

      SUBROUTINE FCN(N, X, F)
      INTEGER N
      DOUBLE PRECISION X(N), F(N)
      INTEGER I
      DO 10 I = 1, N
         F(I) = 0.7D0 * X(I)**2 - COS(X(I))
         IF (I .GT. 1) F(I) = F(I) + 0.1D0 * X(I-1)
   10 CONTINUE
      RETURN
      END

      SUBROUTINE UPD(N, X, F, T)
      INTEGER N
      DOUBLE PRECISION X(N), F(N), T(N)
      INTEGER I
      DO 10 I = 1, N
         T(I) = X(I) - 0.1D0 * F(I)
         X(I) = 0.5D0 * (X(I) + T(I))
   10 CONTINUE
      RETURN
      END

      SUBROUTINE SCL(A, B)
      DOUBLE PRECISION A, B
      A = A * (1.0D0 + 0.1D0 * B)
      B = B - 0.05D0 * A
      RETURN
      END
