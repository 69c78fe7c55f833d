C radtap: -head EOSMIX -vars "RHO TEMP" -outvars "PRES CSND"
C sizes: NCELL=6
C     Equation-of-state driver of an old hydrocode: the law for each
C     cell is picked by a computed GOTO on a material number kept in a
C     labelled COMMON block filled from DATA in an initialisation
C     routine (ideal gas, stiffened gas, Tait liquid, Noble-Abel), the
C     sound speed from the pressure derivatives, REAL*8 declarations,
C     and an assigned material index table.
      SUBROUTINE EOSINI
      REAL*8 GAM, PINF, B0, COV
      INTEGER MATNO
      COMMON /EOSPAR/ GAM(4), PINF(4), B0, COV, MATNO(20)
      INTEGER I
      DATA GAM /1.4D0, 4.4D0, 7.15D0, 1.25D0/
      DATA PINF /0.0D0, 0.05D0, 0.0D0, 0.0D0/
      DATA B0, COV /0.3D0, 0.1D0/
      DO 10 I = 1, 20
         MATNO(I) = MOD(I - 1, 4) + 1
   10 CONTINUE
      RETURN
      END

      SUBROUTINE EOSMIX(NCELL, RHO, TEMP, PRES, CSND)
      INTEGER NCELL
      REAL*8 RHO(NCELL), TEMP(NCELL), PRES(NCELL), CSND(NCELL)
      REAL*8 GAM, PINF, B0, COV
      INTEGER MATNO
      COMMON /EOSPAR/ GAM(4), PINF(4), B0, COV, MATNO(20)
      REAL*8 E, G, DPDR, DPDE
      INTEGER I, M
      CALL EOSINI
      DO 100 I = 1, NCELL
         M = MATNO(I)
         G = GAM(M)
         E = TEMP(I)/(G - 1.0D0)
         GO TO (10, 20, 30, 40), M
C        Ideal gas
   10    PRES(I) = (G - 1.0D0)*RHO(I)*E
         DPDR = (G - 1.0D0)*E
         DPDE = (G - 1.0D0)*RHO(I)
         GO TO 90
C        Stiffened gas
   20    PRES(I) = (G - 1.0D0)*RHO(I)*E - G*PINF(M)
         DPDR = (G - 1.0D0)*E
         DPDE = (G - 1.0D0)*RHO(I)
         GO TO 90
C        Tait liquid (barotropic)
   30    PRES(I) = B0*((RHO(I)/0.8D0)**G - 1.0D0) + 1.0D0
         DPDR = B0*G*(RHO(I)/0.8D0)**(G - 1.0D0)/0.8D0
         DPDE = 0.0D0
         GO TO 90
C        Noble-Abel co-volume gas
   40    PRES(I) = (G - 1.0D0)*RHO(I)*E/(1.0D0 - COV*RHO(I))
         DPDR = (G - 1.0D0)*E/(1.0D0 - COV*RHO(I))**2
         DPDE = (G - 1.0D0)*RHO(I)/(1.0D0 - COV*RHO(I))
   90    CSND(I) = SQRT(DPDR + PRES(I)*DPDE/RHO(I)**2)
  100 CONTINUE
      RETURN
      END
