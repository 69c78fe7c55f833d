C radtap: -head ATMOS -vars "Z PARM" -outvars "RHO T"
C sizes: NZ=6
C     A standard-atmosphere style routine written with the FORTRAN 66/77
C     specific intrinsic names old codes use everywhere: DSQRT, DEXP,
C     DLOG, DLOG10, DABS, DMAX1, DMIN1, DSIGN, DATAN, DCOS, DSIN, DTANH,
C     DFLOAT, IDINT, together with REAL*8 declarations, an INTRINSIC
C     statement, DATA for the layer table and a DO loop over layers
C     selecting the layer by integer arithmetic.
      SUBROUTINE ATMOS(NZ, Z, PARM, RHO, T)
      INTEGER NZ
      REAL*8 Z(NZ), PARM(3), RHO(NZ), T(NZ)
      REAL*8 HB(4), TB(4), TLAPSE(4), H, TK, P, G0, R, W
      INTEGER I, L
      INTRINSIC DSQRT, DEXP, DLOG, DLOG10, DABS, DMAX1, DMIN1, DSIGN
      INTRINSIC DATAN, DCOS, DSIN, DTANH, DFLOAT, IDINT
      DATA HB /0.0D0, 11.0D0, 20.0D0, 32.0D0/
      DATA TB /288.15D0, 216.65D0, 216.65D0, 228.65D0/
      DATA TLAPSE /-6.5D0, 0.0D0, 1.0D0, 2.8D0/
      G0 = 9.80665D0
      R = 287.05D0
      DO 20 I = 1, NZ
         H = 2.5D0*DFLOAT(I) + 0.5D0*Z(I)
         L = MIN(4, IDINT(H/10.0D0) + 1)
         TK = TB(L) + TLAPSE(L)*(H - HB(L))*PARM(1)
         TK = DMAX1(TK, 150.0D0)
         TK = DMIN1(TK, 400.0D0)
         P = 101.325D0*DEXP(-G0*H*1.0D3/(R*0.5D0*(TK + 288.15D0)))
         W = DSIGN(1.0D0, PARM(2))*DSQRT(DABS(PARM(2)))
         RHO(I) = P/(R*TK)*1.0D3*(1.0D0 + 0.01D0*W*DTANH(PARM(3)))
     +          + 1.0D-3*DLOG(TK)*DLOG10(P)
         T(I) = TK + DATAN(Z(I))*DCOS(PARM(3)) + DSIN(Z(I))
   20 CONTINUE
      RETURN
      END
