C     IMPLICIT DOUBLE PRECISION (A-H,O-Z) with a series expansion
C     and a simple trapezoidal integration.
      PROGRAM IMPDBL
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (NTERM = 20)
      X = 1.0D0
      TERM = 1.0D0
      SUM = 1.0D0
      DO 10 K = 1, NTERM
         TERM = TERM * X / DBLE(K)
         SUM = SUM + TERM
   10 CONTINUE
      WRITE (*,100) SUM, EXP(X), ABS(SUM - EXP(X)) .LT. 1.0D-12
  100 FORMAT (1X, 'SERIES E = ', F16.12, /, 1X, 'EXP(1)   = ', F16.12,
     &        /, 1X, 'CLOSE    = ', L2)
      A = 0.0D0
      B = 3.141592653589793D0
      N = 200
      VAL = TRAP(A, B, N)
      WRITE (*,110) N, VAL
  110 FORMAT (1X, 'TRAPEZOID N=', I4, ' INTEGRAL SIN = ', F14.10)
      CALL STATS(5, AVG, DEV)
      WRITE (*,120) AVG, DEV
  120 FORMAT (1X, 'MEAN = ', F10.5, ' STDDEV = ', F10.5)
      END
C
      DOUBLE PRECISION FUNCTION TRAP(A, B, N)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      H = (B - A) / DBLE(N)
      S = 0.5D0 * (SIN(A) + SIN(B))
      DO 20 I = 1, N - 1
         S = S + SIN(A + DBLE(I) * H)
   20 CONTINUE
      TRAP = S * H
      RETURN
      END
C
      SUBROUTINE STATS(N, AVG, DEV)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION X(5)
      DATA X / 2.0D0, 4.0D0, 4.0D0, 5.0D0, 7.0D0 /
      S = 0.0D0
      DO 30 I = 1, N
         S = S + X(I)
   30 CONTINUE
      AVG = S / N
      S2 = 0.0D0
      DO 40 I = 1, N
         S2 = S2 + (X(I) - AVG)**2
   40 CONTINUE
      DEV = SQRT(S2 / DBLE(N - 1))
      RETURN
      END
