C     radtap: -head BURG -vars "U0" -outvars "E"
C     sizes: U0=4
C     COMMON blocks and PARAMETERs kept in an include file, as real F77
C     codes keep them (INCLUDE 'grid.inc' in every routine). The INCLUDE
C     line was copied but never read: U, VISC and DX were implicit
C     locals, the path through the COMMON was invisible and the
C     derivative had only the direct term (silently wrong in every
C     mode). The included statements are now read where the INCLUDE
C     stands.
      SUBROUTINE SETG(U0)
      INCLUDE 'f77_include_common.inc'
      DOUBLE PRECISION U0(NX)
      INTEGER I
      VISC = 0.5D0 + 0.1D0*U0(2)
      DX = 1.0D0/NX
      DO 10 I = 1, NX
         U(I) = U0(I)*VISC
   10 CONTINUE
      END
      SUBROUTINE STEP
      INCLUDE 'f77_include_common.inc'
      INTEGER I
      DO 20 I = 2, NX
         U(I) = U(I) - DX*U(I)*(U(I) - U(I-1)) + VISC*DX*U(I-1)
   20 CONTINUE
      END
      SUBROUTINE BURG(U0, E)
      INCLUDE 'f77_include_common.inc'
      DOUBLE PRECISION U0(NX), E
      INTEGER I, K
      CALL SETG(U0)
      DO 30 K = 1, 3
         CALL STEP
   30 CONTINUE
      E = U0(1)
      DO 40 I = 1, NX
         E = E + U(I)**2
   40 CONTINUE
      END
