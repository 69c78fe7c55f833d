C radtap: -head "GRHEAD(RES)/(P)"
C A rule receiving two integrands through its dummy F that cannot be specialised per
C integrand (it counts its calls in a SAVE variable: each copy would count its own), whose
C integrands read their parameter from COMMON: its arguments are passive, the value of F(C)
C is not. The derivative was silently zero; refused at the call.
      DOUBLE PRECISION FUNCTION GRF1(X)
      DOUBLE PRECISION X, P
      COMMON /GRPAR/ P
      GRF1 = EXP(-P*X)
      END

      DOUBLE PRECISION FUNCTION GRF2(X)
      DOUBLE PRECISION X, P
      COMMON /GRPAR/ P
      GRF2 = P*X*X
      END

      SUBROUTINE GRRULE(F, A, B, RESULT)
      DOUBLE PRECISION F, A, B, RESULT
      INTEGER NCALL
      EXTERNAL F
      SAVE NCALL
      DATA NCALL / 0 /
      NCALL = NCALL + 1
      RESULT = (B - A)*F(0.5D0*(A + B))
      END

      SUBROUTINE GRHEAD(P, RES)
      DOUBLE PRECISION P, RES, PP, R1, R2, GRF1, GRF2
      EXTERNAL GRF1, GRF2
      COMMON /GRPAR/ PP
      PP = P
      CALL GRRULE(GRF1, 0.0D0, 1.0D0, R1)
      CALL GRRULE(GRF2, 0.0D0, 1.0D0, R2)
      RES = R1 + R2
      END
