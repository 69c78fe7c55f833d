C radtap: -head PROFIL -vars "COEF" -outvars "PROF TOTAL"
C sizes: NZ=7
C     A vertical profile routine in the old style: implicit typing
C     throughout (REAL*8 via IMPLICIT), a work array shared by
C     EQUIVALENCE between a two-column table WORK(NMAX,2) and two
C     one-dimensional names A and B, constants in DATA statements, a
C     statement function on passive heights, and an arithmetic IF on
C     an integer to pick the boundary treatment.
      SUBROUTINE PROFIL(NZ, COEF, PROF, TOTAL)
      IMPLICIT REAL*8 (A-H, O-Z)
      PARAMETER (NMAX = 50)
      DIMENSION COEF(3), PROF(NZ)
      DIMENSION WORK(NMAX, 2), A(NMAX), B(NMAX)
      EQUIVALENCE (WORK(1,1), A(1)), (WORK(1,2), B(1))
      DATA ZTOP, SCALE /2.0D0, 0.35D0/
      DATA NSMTH /2/
C     Passive height of level K (statement function on integers).
      ZLEV(K) = ZTOP*DBLE(K)/DBLE(NZ + 1)
      DO 10 K = 1, NZ
         Z = ZLEV(K)
         A(K) = COEF(1)*EXP(-Z/SCALE) + COEF(2)*Z
         B(K) = COEF(3)*(1.0D0 + Z*Z)
   10 CONTINUE
C     Smooth the first column in place, reading both through WORK.
      DO 30 IS = 1, NSMTH
         DO 20 K = 2, NZ - 1
            WORK(K, 1) = 0.25D0*WORK(K-1, 1) + 0.5D0*WORK(K, 1)
     &                 + 0.25D0*WORK(K+1, 1)
   20    CONTINUE
   30 CONTINUE
      TOTAL = 0.0D0
      DO 50 K = 1, NZ
         IB = K - NZ
         IF (IB) 40, 45, 45
   40    PROF(K) = A(K) + 0.1D0*B(K)
         GO TO 48
   45    PROF(K) = 0.5D0*(A(K) + A(K-1)) + 0.1D0*WORK(K, 2)
   48    TOTAL = TOTAL + PROF(K)*ZLEV(K)
   50 CONTINUE
      RETURN
      END
