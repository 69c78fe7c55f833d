C radtap: -head PAQUAD -vars "P" -outvars "RES"
C sizes:
C Procedure arguments known as procedures only by their calls, as FMM's QUANC8 and ZEROIN
C and RKF45's FEHL are written: a quadrature routine's integrand declared DOUBLE PRECISION
C and called, and a step routine's right-hand side not declared at all and CALLed. The
C derivative routines call the derivatives of the actual procedures instead, so the dummies
C were variables there and the head's CALL of them did not compile (radtap exited 0); they
C are declared EXTERNAL now. A root finder in ZEROIN's shape receives two functions of
C one argument, so it is specialised per function: its copies call G1 and G2 by name, which
C the copies now declare with the dummy's type (they were implicitly REAL there, and the
C adjoint's primal copies computed with single-precision garbage: ZEROIN never converged). The
C root finder takes secant steps here, so that its result is differentiable.
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

      DOUBLE PRECISION FUNCTION G1(X)
      DOUBLE PRECISION X, P
      COMMON /PAPAR/ P
      G1 = X**3 + X - P
      END

      DOUBLE PRECISION FUNCTION G2(X)
      DOUBLE PRECISION X, P
      COMMON /PAPAR/ P
      G2 = X - 0.5D0*COS(P*X)
      END

      DOUBLE PRECISION FUNCTION PAROOT(AX, BX, F)
      DOUBLE PRECISION AX, BX, F, A, B, C, FA, FB
      INTEGER K
      A = AX
      B = BX
      FA = F(A)
      FB = F(B)
      DO 20 K = 1, 5
        C = B - FB*(B - A)/(FB - FA)
        A = B
        FA = FB
        B = C
        FB = F(B)
   20 CONTINUE
      PAROOT = B
      END

      SUBROUTINE PAQUAD(P, RES)
      DOUBLE PRECISION P, RES, PP, Y, PAFUN, G1, G2, PAROOT
      EXTERNAL PAFUN, PARHS, G1, G2
      COMMON /PAPAR/ PP
      PP = P
      CALL PASIMP(PAFUN, 0.0D0, 1.0D0, 8, RES)
      Y = 1.0D0
      CALL PASTEP(PARHS, 0.0D0, 0.5D0, Y)
      RES = RES + Y + PAROOT(0.5D0, 1.0D0, G1)
      RES = RES + 2.0D0*PAROOT(0.2D0, 0.6D0, G2)
      END
