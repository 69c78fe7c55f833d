C radtap: -head EQCOM -vars "S" -outvars "R"
C sizes:
C A local array equivalenced onto a COMMON array, written through the
C local name and read through the COMMON name, here and through a
C callee: the local had a zone of its own, so the derivative of the
C write was lost (silently wrong) and the callee had no influence.
      SUBROUTINE EQCOM(S, R)
      DOUBLE PRECISION S, R, F(3), FL(3)
      COMMON /G/ F
      EQUIVALENCE (F(1), FL(1))
      FL(2) = S*S
      R = F(2) + S
      CALL EQSETF(S)
      R = R + F(3)*F(2)
      END
      SUBROUTINE EQSETF(S)
      DOUBLE PRECISION S, F(3), FL(3)
      COMMON /G/ F
      EQUIVALENCE (F(1), FL(1))
      FL(3) = SIN(S)
      END
