C     Newton and bisection root finders with REAL*8 arithmetic and
C     EXTERNAL function arguments.
      PROGRAM NEWTON
      REAL*8 ROOT, TOL, A, B
      REAL*8 FPOLY, DPOLY, FCOS, DCOS1
      INTEGER*4 NIT
      EXTERNAL FPOLY, DPOLY, FCOS, DCOS1
      TOL = 1.0D-12
      CALL NEWTRF(FPOLY, DPOLY, 2.0D0, TOL, ROOT, NIT)
      WRITE (*,100) 'CUBIC ', ROOT, NIT
      CALL NEWTRF(FCOS, DCOS1, 1.0D0, TOL, ROOT, NIT)
      WRITE (*,100) 'COS-X ', ROOT, NIT
  100 FORMAT (1X, 'NEWTON ', A6, ' ROOT = ', F16.12, ' ITERS = ', I3)
      A = 0.0D0
      B = 3.0D0
      CALL BISECT(FPOLY, A, B, 1.0D-10, ROOT, NIT)
      WRITE (*,110) ROOT, NIT
  110 FORMAT (1X, 'BISECTION ROOT = ', F14.8, ' ITERS = ', I3)
      END
C
      SUBROUTINE NEWTRF(F, DF, X0, TOL, X, NIT)
      REAL*8 F, DF, X0, TOL, X, DX
      INTEGER*4 NIT, K
      EXTERNAL F, DF
      X = X0
      NIT = 0
      DO 10 K = 1, 50
         DX = F(X) / DF(X)
         X = X - DX
         NIT = K
         IF (ABS(DX) .LT. TOL) GO TO 20
   10 CONTINUE
   20 RETURN
      END
C
      SUBROUTINE BISECT(F, A0, B0, TOL, X, NIT)
      REAL*8 F, A0, B0, TOL, X, A, B, FA, FM
      INTEGER NIT
      EXTERNAL F
      A = A0
      B = B0
      FA = F(A)
      NIT = 0
   30 CONTINUE
      NIT = NIT + 1
      X = 0.5D0 * (A + B)
      FM = F(X)
      IF (FA * FM .LE. 0.0D0) THEN
         B = X
      ELSE
         A = X
         FA = FM
      END IF
      IF (B - A .GT. TOL .AND. NIT .LT. 200) GO TO 30
      X = 0.5D0 * (A + B)
      RETURN
      END
C
      REAL*8 FUNCTION FPOLY(X)
      REAL*8 X
      FPOLY = X**3 - 2.0D0 * X - 5.0D0
      END
C
      REAL*8 FUNCTION DPOLY(X)
      REAL*8 X
      DPOLY = 3.0D0 * X**2 - 2.0D0
      END
C
      REAL*8 FUNCTION FCOS(X)
      REAL*8 X
      FCOS = COS(X) - X
      END
C
      REAL*8 FUNCTION DCOS1(X)
      REAL*8 X
      DCOS1 = -SIN(X) - 1.0D0
      END
