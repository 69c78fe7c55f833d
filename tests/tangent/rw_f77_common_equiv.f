C radtap: -head HEATEX -vars "TIN" -outvars "QTOT"
C sizes: NSEG=6
C     A counter-flow heat-exchanger model in the style of 1970s plant
C     codes: named COMMON blocks for the physical properties (/PROPS/,
C     set by a BLOCK-DATA-like initialisation routine from DATA) and for
C     the state (/STATE/), an EQUIVALENCE of a 2-D work array with a
C     1-D alias used for the energy sum, IMPLICIT typing, a statement
C     function for the film coefficient on passive arguments, PARAMETER,
C     an arithmetic IF on the integer segment parity and a computed GOTO
C     on the flow regime.  The shapes are given by DIMENSION statements
C     after the type statements.
      SUBROUTINE HEATEX(NSEG, TIN, QTOT)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      INTEGER NSEG
      DOUBLE PRECISION TIN, QTOT
      DIMENSION TIN(2)
      PARAMETER (MAXSEG = 12)
      COMMON /PROPS/ CPH, CPC, UA(3), IREG
      COMMON /STATE/ TH(MAXSEG), TC(MAXSEG)
      DOUBLE PRECISION WORK, WFLAT
      DIMENSION WORK(MAXSEG, 2), WFLAT(2*MAXSEG)
      EQUIVALENCE (WORK(1,1), WFLAT(1))
      HFILM(I, J) = 1.0D0 + 0.1D0*DBLE(I) + 0.05D0*DBLE(J)
      CALL SETPRP
      TH(1) = 3.0D0 + TIN(1)
      TC(NSEG) = 1.0D0 + 0.5D0*TIN(2)
      DO 20 I = 2, NSEG
         TH(I) = TH(I-1) - 0.1D0*TH(I-1)/CPH
         TC(NSEG+1-I) = TC(NSEG+2-I) + 0.05D0*TIN(1)/CPC
   20 CONTINUE
      DO 40 I = 1, NSEG
         GOTO (31, 32, 33) IREG
   31    H = UA(1)*HFILM(I, 1)
         GOTO 35
   32    H = UA(2)*HFILM(I, 2)
         GOTO 35
   33    H = UA(3)*HFILM(I, 3)
   35    IF (MOD(I, 2) - 1) 36, 37, 37
   36    H = 1.1D0*H
   37    WORK(I, 1) = H*(TH(I) - TC(I))
         WORK(I, 2) = H*LOG(TH(I)/TC(I))
   40 CONTINUE
      QTOT = 0.0D0
      DO 50 K = 1, NSEG
         QTOT = QTOT + WFLAT(K) + 0.1D0*WFLAT(MAXSEG + K)
   50 CONTINUE
      RETURN
      END

      SUBROUTINE SETPRP
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      COMMON /PROPS/ CPH, CPC, UA(3), IREG
      DIMENSION UAD(3)
      DATA UAD /0.8D0, 1.2D0, 1.5D0/
      DATA CPHD, CPCD /4.2D0, 3.9D0/
      CPH = CPHD
      CPC = CPCD
      DO 10 K = 1, 3
         UA(K) = UAD(K)
   10 CONTINUE
      IREG = 2
      RETURN
      END
