C radtap: -head NLSOLV -vars "C" -outvars "X FNORM"
C sizes: N=4
C     A damped Newton solver for a small nonlinear system, as in the
C     netlib HYBRD-era drivers but simpler: the residual FCN and its
C     Jacobian JAC are separate subroutines; the linear step is solved by
C     Gaussian elimination without pivoting on the (diagonally dominant)
C     Jacobian in a local work array; the loop is a labelled DO with an
C     exit GOTO on the residual norm; a scaled DNRM2-like norm; the
C     trigonometric system of More-Garbow-Hillstrom (shifted so that it
C     has a root near the start).
      SUBROUTINE NLSOLV(N, C, X, FNORM)
      INTEGER N
      DOUBLE PRECISION C(N), X(N), FNORM
      DOUBLE PRECISION F(12), FJ(12,12), DX(12), ENORM
      INTEGER I, ITER
      DO 10 I = 1, N
         X(I) = 0.1D0
   10 CONTINUE
      DO 40 ITER = 1, 30
         CALL FCN(N, C, X, F)
         FNORM = ENORM(N, F)
         IF (FNORM .LT. 1.0D-14) GOTO 50
         CALL JAC(N, C, X, FJ, 12)
         CALL GSOLVE(N, FJ, 12, F, DX)
         DO 30 I = 1, N
            X(I) = X(I) - DX(I)
   30    CONTINUE
   40 CONTINUE
   50 CONTINUE
      CALL FCN(N, C, X, F)
      FNORM = ENORM(N, F) + X(1)**2
      RETURN
      END

      SUBROUTINE FCN(N, C, X, F)
      INTEGER N, J
      DOUBLE PRECISION C(N), X(N), F(N), SUM
      SUM = 0.0D0
      DO 10 J = 1, N
         SUM = SUM + COS(X(J))
   10 CONTINUE
      DO 20 J = 1, N
         F(J) = DBLE(N) - SUM + DBLE(J)*(1.0D0 - COS(X(J)))
     +          - SIN(X(J)) + 4.0D0*X(J) - 0.2D0*C(J)
   20 CONTINUE
      RETURN
      END

      SUBROUTINE JAC(N, C, X, FJ, LDFJ)
      INTEGER N, LDFJ, I, J
      DOUBLE PRECISION C(N), X(N), FJ(LDFJ,N)
      DO 20 J = 1, N
         DO 10 I = 1, N
            FJ(I,J) = SIN(X(J))
   10    CONTINUE
         FJ(J,J) = SIN(X(J)) + DBLE(J)*SIN(X(J)) - COS(X(J)) + 4.0D0
   20 CONTINUE
      RETURN
      END

      SUBROUTINE GSOLVE(N, A, LDA, B, X)
      INTEGER N, LDA, I, J, K
      DOUBLE PRECISION A(LDA,N), B(N), X(N), W(12,13), FAC
      DO 20 I = 1, N
         DO 10 J = 1, N
            W(I,J) = A(I,J)
   10    CONTINUE
         W(I,N+1) = B(I)
   20 CONTINUE
      DO 50 K = 1, N - 1
         DO 40 I = K + 1, N
            FAC = W(I,K)/W(K,K)
            DO 30 J = K, N + 1
               W(I,J) = W(I,J) - FAC*W(K,J)
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
      DO 70 I = N, 1, -1
         X(I) = W(I,N+1)
         DO 60 J = I + 1, N
            X(I) = X(I) - W(I,J)*X(J)
   60    CONTINUE
         X(I) = X(I)/W(I,I)
   70 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION ENORM(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(N), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I)**2
   10 CONTINUE
      ENORM = SQRT(S + 1.0D-30)
      RETURN
      END
