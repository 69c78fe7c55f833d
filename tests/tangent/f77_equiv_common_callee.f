C radtap: -head EQCTOP -vars "S" -outvars "R"
C sizes:
C A callee writes through a local equivalenced onto COMMON; the head
C reads the COMMON member: no differentiable influence was found (AD060)
C and the derivative was zero.
      SUBROUTINE EQCSET(S)
      DOUBLE PRECISION S, F(3), FL(3)
      COMMON /G/ F
      EQUIVALENCE (F(1), FL(1))
      FL(2) = S*S
      END
      SUBROUTINE EQCTOP(S, R)
      DOUBLE PRECISION S, R, F(3)
      COMMON /G/ F
      CALL EQCSET(S)
      R = F(2) + S
      END
