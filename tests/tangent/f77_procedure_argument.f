C radtap: -head PAQUAD -vars "P" -outvars "RES"
C sizes:
C Procedure arguments known as procedures only by their calls, as FMM's QUANC8 and ZEROIN
C and RKF45's FEHL are written: a quadrature routine's integrand declared DOUBLE PRECISION
C and called, and a step routine's right-hand side not declared at all and CALLed. The
C derivative routines call the derivatives of the actual procedures instead, so the dummies
C were variables there and the head's CALL of them did not compile (radtap exited 0); they
C are declared EXTERNAL now.
      DOUBLE PRECISION FUNCTION PAFUN(X)
      DOUBLE PRECISION X, P
      COMMON /PAPAR/ P
      PAFUN = SIN(P*X) + X*X*P
      END

      SUBROUTINE PARHS(X, Y)
      DOUBLE PRECISION X, Y, P
      COMMON /PAPAR/ P
      Y = EXP(-P*X)
      END

      SUBROUTINE PASIMP(FUN, A, B, N, S)
      INTEGER N, I
      DOUBLE PRECISION FUN, A, B, S, H
      H = (B - A) / N
      S = FUN(A) + FUN(B)
      DO 10 I = 1, N - 1
        S = S + 2.0D0 * FUN(A + I*H)
   10 CONTINUE
      S = S * H / 2.0D0
      END

      SUBROUTINE PASTEP(F, X, H, Y)
      DOUBLE PRECISION X, H, Y, K1, K2
      CALL F(X, K1)
      CALL F(X + H, K2)
      Y = Y + H * (K1 + K2) / 2.0D0
      END

      SUBROUTINE PAQUAD(P, RES)
      DOUBLE PRECISION P, RES, PP, Y, PAFUN
      EXTERNAL PAFUN, PARHS
      COMMON /PAPAR/ PP
      PP = P
      CALL PASIMP(PAFUN, 0.0D0, 1.0D0, 8, RES)
      Y = 1.0D0
      CALL PASTEP(PARHS, 0.0D0, 0.5D0, Y)
      RES = RES + Y
      END
