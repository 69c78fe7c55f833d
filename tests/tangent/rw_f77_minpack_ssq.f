C radtap: -head SSQFCN -vars "X" -outvars "FVEC"
C sizes: M=4 N=4 NPROB=3
C     MINPACK-1 test problems in the style of the netlib SSQFCN driver
C     (More, Garbow, Hillstrom): the problem number selects the block
C     with a computed GOTO.  Problem 1 is the extended Rosenbrock
C     function, 2 Powell's singular function, 3 the helical valley
C     (ATAN with the quadrant decided by X(1) > 0), 4 Freudenstein-Roth.
C     PARAMETER constants, DATA, implicit typing for the integers and
C     a statement function on passive values.
      SUBROUTINE SSQFCN(M, N, X, FVEC, NPROB)
      INTEGER M, N, NPROB
      DOUBLE PRECISION X(N), FVEC(M)
      INTEGER I, IEV
      DOUBLE PRECISION ZERO, ONE, TWO, FIVE, TEN, C13, C14, C29
      DOUBLE PRECISION TPI, TMP1, TMP2, TMP3, TMP4, HALF
      DOUBLE PRECISION SCALE
      PARAMETER (ZERO = 0.0D0, ONE = 1.0D0, TWO = 2.0D0, FIVE = 5.0D0)
      PARAMETER (TEN = 1.0D1, C13 = 1.3D1, C14 = 1.4D1, C29 = 2.9D1)
      DATA HALF /0.5D0/
      SCALE(I) = ONE/DBLE(I + 1)
      TPI = 8.0D0*ATAN(ONE)
      GOTO (100, 200, 300, 400), NPROB
C     EXTENDED ROSENBROCK FUNCTION.
  100 CONTINUE
      DO 110 I = 1, N, 2
         TMP1 = ONE - X(I)
         FVEC(I+1) = TEN*(X(I+1) - X(I)**2)
         FVEC(I) = TMP1
  110 CONTINUE
      GOTO 900
C     POWELL SINGULAR FUNCTION.
  200 CONTINUE
      FVEC(1) = X(1) + TEN*X(2)
      FVEC(2) = SQRT(FIVE)*(X(3) - X(4))
      FVEC(3) = (X(2) - TWO*X(3))**2
      FVEC(4) = SQRT(TEN)*(X(1) - X(4))**2
      GOTO 900
C     HELICAL VALLEY FUNCTION.
  300 CONTINUE
      TMP1 = SIGN(0.25D0, X(2))
      IF (X(1) .GT. ZERO) TMP1 = ATAN(X(2)/X(1))/TPI
      IF (X(1) .LT. ZERO) TMP1 = ATAN(X(2)/X(1))/TPI + HALF
      TMP2 = SQRT(X(1)**2 + X(2)**2)
      FVEC(1) = TEN*(X(3) - TEN*TMP1)
      FVEC(2) = TEN*(TMP2 - ONE)
      FVEC(3) = X(3)
      FVEC(4) = SCALE(3)*X(1)*X(2)
      GOTO 900
C     FREUDENSTEIN AND ROTH FUNCTION.
  400 CONTINUE
      FVEC(1) = -C13 + X(1) + ((FIVE - X(2))*X(2) - TWO)*X(2)
      FVEC(2) = -C29 + X(1) + ((ONE + X(2))*X(2) - C14)*X(2)
      TMP3 = X(3)*X(4)
      TMP4 = X(3) + X(4)
      FVEC(3) = SCALE(1)*TMP3
      FVEC(4) = SCALE(2)*TMP4
  900 CONTINUE
      IEV = 0
      DO 910 I = 1, M
         IF (ABS(FVEC(I)) .GT. 1.0D3) IEV = IEV + 1
  910 CONTINUE
      IF (IEV .GT. 0) FVEC(1) = FVEC(1)*HALF
      RETURN
      END
