C radtap: -head PQHEAD -vars "P" -outvars "RES"
C sizes:
C The shape of netlib QUADPACK, refused before at its first line of data (AD010): Gauss
C constants written with blanks among their digits and before the exponent
C (0.5384693101 056831 D0: blanks are insignificant in fixed form), a Hollerith actual
C argument (CALL PQERR(21HTOO MANY SUBINTERVALS, 21)), an operator and a name split by the
C end of a line (100. / OR., RES / ULT: one token each), and an integrand passed through a
C driver to the rule that calls it, with two integrands: both routines are specialised per
C integrand, and the driver's copies pass PQF1 or PQF2 on with the dummy's type (an
C implicitly REAL function there did not compile).
      DOUBLE PRECISION FUNCTION PQF1(X)
      DOUBLE PRECISION X, P
      COMMON /PQPAR/ P
      PQF1 = EXP(-P*X*X)
      END

      DOUBLE PRECISION FUNCTION PQF2(X)
      DOUBLE PRECISION X, P
      COMMON /PQPAR/ P
      PQF2 = 1.0D0/(1.0D0 + P*X)
      END

      SUBROUTINE PQERR(MSG, N)
      CHARACTER*(*) MSG
      INTEGER N
      RETURN
      END

      SUBROUTINE PQK5(F, A, B, RESULT)
      DOUBLE PRECISION F, A, B, RESULT, XG(3), WG(3), C, H
      INTEGER J
      EXTERNAL F
      DATA XG(1) / 0.0 D0 /
      DATA XG(2) / 0.5384693101 056831 D0 /
      DATA XG(3) / 0.9061798459 386640 D0 /
      DATA WG(1) / 0.5688888888 888889 D0 /
      DATA WG(2) / 0.4786286704 993665 D0 /
      DATA WG(3) / 0.2369268850 561891 D 0 /
      C = 0.5 D0*(A + B)
      H = 0.5 D0*(B - A)
      RESULT = WG(1)*F(C)
      DO 10 J = 2, 3
        RESULT = RESULT + WG(J)*(F(C - H*XG(J)) + F(C + H*XG(J)))
   10 CONTINUE
      RESULT = RESULT*H
      END

      SUBROUTINE PQAGS(F, A, B, N, RESULT, IER)
      DOUBLE PRECISION F, A, B, RESULT, H, R
      INTEGER N, K, IER
      EXTERNAL F
      IER = 0
      IF (N .GT. 100.
     *OR. N .LT. 1) THEN
        CALL PQERR(21HTOO MANY SUBINTERVALS, 21)
        IER = 1
        RETURN
      END IF
      H = (B - A)/N
      RESULT = 0.0D0
      DO 20 K = 1, N
        CALL PQK5(F, A + (K-1)*H, A + K*H, R)
        RESULT = RES
     *ULT + R
   20 CONTINUE
      END

      SUBROUTINE PQHEAD(P, RES)
      DOUBLE PRECISION P, RES, PP, R1, R2, PQF1, PQF2
      INTEGER IER
      EXTERNAL PQF1, PQF2
      COMMON /PQPAR/ PP
      PP = P
      CALL PQAGS(PQF1, 0.0D0, 1.0D0, 4, R1, IER)
      CALL PQAGS(PQF2, 0.0D0, 1.0D0, 4, R2, IER)
      RES = R1 + 2.0D0*R2
      END
