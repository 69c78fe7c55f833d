C radtap: -head EQEXT -vars "S" -outvars "R"
C sizes:
C A local equivalenced onto the last element of a COMMON array extends
C the block past its end; another unit declares the longer block and
C reads the extension. The local shares only the zones of the block as
C this unit declares it, so the write would not reach EQEXR: refused.
      SUBROUTINE EQEXT(S, R)
      DOUBLE PRECISION S, R, F(2), FL(3)
      COMMON /H/ F
      EQUIVALENCE (F(2), FL(1))
      FL(3) = S*S
      CALL EQEXR(R)
      END
      SUBROUTINE EQEXR(R)
      DOUBLE PRECISION R, G(4)
      COMMON /H/ G
      R = G(4)
      END
