C radtap: -head OBJFUN -vars "X" -outvars "F"
C sizes: N=5
C     Two classical unconstrained test functions (More, Garbow, Hillstrom
C     1981) written as in the netlib OBJFCN/GRDFCN drivers: the Watson
C     function (29 sample points, powers of T in nested loops) and
C     Chebyquad (Chebyshev polynomials by the three-term recurrence on
C     the mapped variable, with the exact integrals of even degree).
C     The head sums them with weights.  Implicit typing, a local work
C     array dimensioned by PARAMETER, labelled DO loops, IF blocks on
C     integers.
      SUBROUTINE OBJFUN(N, X, F)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      PARAMETER (NMAX = 12)
      DIMENSION X(N), FVEC(NMAX)
      F1 = WATSON(N, X)
      CALL CHEBYQ(N, N, X, FVEC)
      F2 = 0.0D0
      DO 10 I = 1, N
         F2 = F2 + FVEC(I)**2
   10 CONTINUE
      F = 1.0D-2*F1 + F2
      RETURN
      END

      DOUBLE PRECISION FUNCTION WATSON(N, X)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION X(N)
      WATSON = 0.0D0
      DO 30 I = 1, 29
         DIV = DBLE(I)/2.9D1
         S1 = 0.0D0
         DX = 1.0D0
         DO 10 J = 2, N
            S1 = S1 + DBLE(J-1)*DX*X(J)
            DX = DIV*DX
   10    CONTINUE
         S2 = 0.0D0
         DX = 1.0D0
         DO 20 J = 1, N
            S2 = S2 + DX*X(J)
            DX = DIV*DX
   20    CONTINUE
         T = S1 - S2**2 - 1.0D0
         WATSON = WATSON + T*T
   30 CONTINUE
      T = X(2) - X(1)**2 - 1.0D0
      WATSON = WATSON + X(1)**2 + T*T
      RETURN
      END

      SUBROUTINE CHEBYQ(M, N, X, FVEC)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      DIMENSION X(N), FVEC(M)
      DO 10 I = 1, M
         FVEC(I) = 0.0D0
   10 CONTINUE
      DO 30 J = 1, N
         TMP1 = 1.0D0
         TMP2 = 2.0D0*(X(J)/2.0D0) - 1.0D0
         TEMP = 2.0D0*TMP2
         DO 20 I = 1, M
            FVEC(I) = FVEC(I) + TMP2
            TI = TEMP*TMP2 - TMP1
            TMP1 = TMP2
            TMP2 = TI
   20    CONTINUE
   30 CONTINUE
      DX = 1.0D0/DBLE(N)
      IEV = -1
      DO 40 I = 1, M
         FVEC(I) = DX*FVEC(I)
         IF (IEV .GT. 0) FVEC(I) = FVEC(I) + 1.0D0/(DBLE(I)**2 - 1.0D0)
         IEV = -IEV
   40 CONTINUE
      RETURN
      END
