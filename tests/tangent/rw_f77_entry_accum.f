C radtap: -head TRUSS -vars "AREA FORCE" -outvars "COMPL"
C sizes: NBAR=5
C     Compliance of a statically determinate truss as an old structural
C     code computes it: a bookkeeping routine MEMSET with ENTRY points
C     MEMGET and MEMLEN serves the member geometry from a SAVEd table
C     (passive), the member type is chosen by a computed GOTO on an
C     integer code, and the axial energy is accumulated.
      SUBROUTINE MEMSET(NB)
      INTEGER NB, I, K
      DOUBLE PRECISION XL(20), ANG(20), RL, RA
      INTEGER NSAVE
      SAVE XL, ANG, NSAVE
      NSAVE = NB
      DO 10 I = 1, NB
         XL(I) = 1.0D0 + 0.25D0*DBLE(MOD(I, 3))
         ANG(I) = 0.3D0*DBLE(I)
   10 CONTINUE
      RETURN
C
      ENTRY MEMGET(K, RL, RA)
      RL = XL(K)
      RA = ANG(K)
      RETURN
C
      ENTRY MEMLEN(K, RL)
      RL = XL(K)
      RETURN
      END

      SUBROUTINE TRUSS(NBAR, AREA, FORCE, COMPL)
      INTEGER NBAR, I, ITYPE
      DOUBLE PRECISION AREA(NBAR), FORCE, COMPL
      DOUBLE PRECISION XLEN, ANG, AXIAL, E, EPS
      CALL MEMSET(NBAR)
      COMPL = 0.0D0
      DO 50 I = 1, NBAR
         CALL MEMGET(I, XLEN, ANG)
         ITYPE = MOD(I - 1, 3) + 1
         GO TO (20, 30, 40), ITYPE
C        Steel member
   20    E = 2.0D0
         AXIAL = FORCE*COS(ANG)
         GO TO 45
C        Aluminium member
   30    E = 0.7D0
         AXIAL = FORCE*SIN(ANG) + 0.1D0
         GO TO 45
C        Timber member, with a geometric correction
   40    E = 0.12D0
         CALL MEMLEN(I, XLEN)
         AXIAL = 0.5D0*FORCE
         EPS = 1.0D-2*XLEN
         XLEN = XLEN*(1.0D0 + EPS)
   45    COMPL = COMPL + AXIAL**2*XLEN/(E*AREA(I))
   50 CONTINUE
      RETURN
      END
