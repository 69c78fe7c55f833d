C radtap: -head LSQ2 -vars "X" -outvars "S"
C sizes: N=5
C     An integer read only by the callees' declarations: A(LDA,*) in
C     COLSQ, the automatic W(K) in SPREAD. No statement of the callees
C     names LDA or K, so the caller's LDA = 10 and K = N + 1 looked dead
C     and were sliced away: COLSQ then indexed A with a garbage leading
C     dimension (a silently wrong derivative).
      SUBROUTINE COLSQ(A, LDA, N, S)
      INTEGER LDA, N, J
      DOUBLE PRECISION A(LDA,*), S
      S = 0.0D0
      DO 10 J = 1, N
         S = S + A(J,J)**2 + A(J+1,J)*A(J,J)
   10 CONTINUE
      END

      SUBROUTINE SPREAD(K, X, T)
      INTEGER K, J
      DOUBLE PRECISION X(*), T, W(K)
      DO 20 J = 1, K - 1
         W(J) = SIN(X(J))
   20 CONTINUE
      W(K) = 1.0D0
      T = 0.0D0
      DO 30 J = 1, K
         T = T + W(J)*W(J)
   30 CONTINUE
      END

      SUBROUTINE LSQ2(N, X, S)
      INTEGER N, LDA, J, K
      DOUBLE PRECISION X(N), S, A(10,10), T
      LDA = 10
      DO 40 J = 1, N
         A(J,J) = X(J)
         A(J+1,J) = 2.0D0*X(J)
   40 CONTINUE
      CALL COLSQ(A, LDA, N, S)
      K = N + 1
      CALL SPREAD(K, X, T)
      S = S*T
      END
