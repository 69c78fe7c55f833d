C radtap: -head TSAT -vars "P HV" -outvars "T Q"
C sizes: NIT=30
C     A saturation-temperature routine in the style of a 1970s steam-
C     table package: bisection written with arithmetic IF and GOTO
C     (IF (F) 10, 40, 20), the vapour-pressure law in a statement
C     function, the Clausius-Clapeyron latent-heat correction evaluated
C     after the root is bracketed to machine tolerance, a LOGICAL flag,
C     and implicit REAL*8 typing.  The root is refined by two Newton
C     steps so that it is differentiable to full precision (the
C     bisection alone is piecewise constant in P).  The statement
C     functions applied to active values are inlined before the
C     analyses (il::stmtfn).
      SUBROUTINE TSAT(NIT, P, HV, T, Q)
      IMPLICIT REAL*8 (A-H, O-Z)
      INTEGER NIT, IT
      LOGICAL CONV
      PSAT(TT) = EXP(1.2D1 - 4.0D3/(TT + 2.0D2))
      DPSAT(TT) = PSAT(TT)*4.0D3/(TT + 2.0D2)**2
      PP = 0.5D0 + P
      TLO = 0.0D0
      THI = 4.0D2
      CONV = .FALSE.
      IT = 0
    5 CONTINUE
      IT = IT + 1
      TM = 0.5D0*(TLO + THI)
      FM = 1.0D-5*(PSAT(TM) - PP*1.0D5)
      IF (FM) 10, 40, 20
   10 TLO = TM
      GOTO 30
   20 THI = TM
   30 IF (IT .LT. NIT) GOTO 5
      GOTO 50
   40 CONV = .TRUE.
   50 CONTINUE
      T = TM
      DO 60 K = 1, 2
         T = T - (PSAT(T) - PP*1.0D5)/DPSAT(T)
   60 CONTINUE
      Q = HV*(1.0D0 + 1.0D-3*(T - 1.0D2))
      IF (CONV) Q = Q*1.0D0
      T = 1.0D-2*T
      RETURN
      END
