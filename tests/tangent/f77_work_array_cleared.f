C     radtap: -head "HEAD(F)/(X)" -size W=6
C     sizes: N=3 W=6
C     A work array W(*) (assumed size, as F77 libraries take their workspace), written then
C     read, neither independent nor dependent. Its adjoint WB stays an argument (it has no
C     extent to make a local of) and must start at zero: HEAD_B added whatever the caller
C     left in WB into XB. With -size W=6 it is cleared (without, a warning says so).
      SUBROUTINE HEAD(N, X, W, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), W(*), F
      CALL FILL(N, X, W)
      F = 0.D0
      DO 20 I = 1, N
         F = F + W(I)*X(I) + W(N+I)
   20 CONTINUE
      END

      SUBROUTINE FILL(N, X, W)
      INTEGER N, I
      DOUBLE PRECISION X(N), W(*)
      DO 10 I = 1, N
         W(I) = X(I)*X(I)
         W(N+I) = SIN(X(I))
   10 CONTINUE
      END
