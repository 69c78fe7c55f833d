C radtap: -head CCHEAD -vars "X" -outvars "Y"
C sizes:
C A COMMON block written by a callee (RELAX) that the intermediate caller
C (SWEEP) does not declare, F77 style with implicit typing in the callee:
C the adjoint of SWEEP records /STATE/ around the call, so it declares the
C block as RELAX does (refused before: memory not visible in this procedure).
      SUBROUTINE RELAX(W)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      COMMON /STATE/ S(3), T
      DO 10 I = 1, 3
        S(I) = S(I)*W + 0.1D0*SIN(S(I))
   10 CONTINUE
      T = T + S(1)*S(3)
      RETURN
      END

      SUBROUTINE SWEEP(W, N)
      DOUBLE PRECISION W
      INTEGER N, K
      DO 20 K = 1, N
        CALL RELAX(W)
   20 CONTINUE
      RETURN
      END

      SUBROUTINE CCHEAD(X, Y)
      DOUBLE PRECISION X(4), Y
      DOUBLE PRECISION S(3), T
      COMMON /STATE/ S, T
      S(1) = X(1)
      S(2) = X(2)*X(3)
      S(3) = COS(X(4))
      T = 0.5D0
      CALL SWEEP(0.9D0 + 0.05D0*X(4), 3)
      Y = T + S(1)*S(2) + S(3)**2
      RETURN
      END
