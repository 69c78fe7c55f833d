C radtap: -head BRYDN -vars "X" -outvars "FVEC F"
C sizes: N=7 ML=2 MU=1
C     Broyden tridiagonal and Broyden banded functions (More, Garbow,
C     Hillstrom problems 30 and 31) as in the netlib VECFCN/SSQFCN
C     drivers: the band limits tested with MAX/MIN of integers inside
C     the loops, IF on the index boundaries, and a sum of squares in a
C     DOUBLE PRECISION FUNCTION.  ML and MU are the lower and upper
C     bandwidths.
      SUBROUTINE BRYDN(N, ML, MU, X, FVEC, F)
      INTEGER N, ML, MU
      DOUBLE PRECISION X(N), FVEC(N), F
      DOUBLE PRECISION FTRI(20), SSQ, XS(20)
      INTEGER I
      DO 5 I = 1, N
         XS(I) = -0.5D0*X(I)
    5 CONTINUE
      CALL BTRI(N, XS, FTRI)
      CALL BBAND(N, ML, MU, XS, FVEC)
      DO 10 I = 1, N
         FVEC(I) = FVEC(I) + 0.5D0*FTRI(I)
   10 CONTINUE
      F = SSQ(N, FVEC)
      RETURN
      END

      SUBROUTINE BTRI(N, X, FVEC)
      INTEGER N, K
      DOUBLE PRECISION X(N), FVEC(N), TEMP, ONE, TWO, THREE
      PARAMETER (ONE = 1.0D0, TWO = 2.0D0, THREE = 3.0D0)
      DO 10 K = 1, N
         TEMP = (THREE - TWO*X(K))*X(K)
         IF (K .NE. 1) TEMP = TEMP - X(K-1)
         IF (K .NE. N) TEMP = TEMP - TWO*X(K+1)
         FVEC(K) = TEMP + ONE
   10 CONTINUE
      RETURN
      END

      SUBROUTINE BBAND(N, ML, MU, X, FVEC)
      INTEGER N, ML, MU, K, K1, K2, J
      DOUBLE PRECISION X(N), FVEC(N), TEMP
      DO 20 K = 1, N
         K1 = MAX(1, K - ML)
         K2 = MIN(K + MU, N)
         TEMP = 0.0D0
         DO 10 J = K1, K2
            IF (J .NE. K) TEMP = TEMP + X(J)*(1.0D0 + X(J))
   10    CONTINUE
         FVEC(K) = X(K)*(2.0D0 + 5.0D0*X(K)**2) + 1.0D0 - TEMP
   20 CONTINUE
      RETURN
      END

      DOUBLE PRECISION FUNCTION SSQ(N, V)
      INTEGER N, I
      DOUBLE PRECISION V(N)
      SSQ = 0.0D0
      DO 10 I = 1, N
         SSQ = SSQ + V(I)**2
   10 CONTINUE
      RETURN
      END
