C     BLOCK DATA subprograms initialising named COMMON blocks.
      PROGRAM BLKDAT
      INTEGER NCONST
      PARAMETER (NCONST = 5)
      DOUBLE PRECISION CONST(NCONST)
      CHARACTER*8 CNAME(NCONST)
      INTEGER NUSED
      LOGICAL VERBOS
      REAL TABX(4), TABY(4)
      COMMON /PHYS/ CONST, NUSED
      COMMON /NAMES/ CNAME
      COMMON /OPTS/ VERBOS
      COMMON /TABLE/ TABX, TABY
      INTEGER I
      REAL XI, TERP
      WRITE (*,*) 'NUMBER OF CONSTANTS USED:', NUSED
      DO 10 I = 1, NUSED
         WRITE (*,100) CNAME(I), CONST(I)
   10 CONTINUE
  100 FORMAT (1X, A8, ' = ', 1PE16.8)
      IF (VERBOS) THEN
         WRITE (*,*) 'VERBOSE MODE ON'
      END IF
      DO 20 I = 0, 6
         XI = 0.5 * REAL(I)
         WRITE (*,110) XI, TERP(XI)
   20 CONTINUE
  110 FORMAT (1X, 'INTERP AT ', F5.2, ' = ', F8.4)
      END
C
      REAL FUNCTION TERP(X)
      REAL X, TABX(4), TABY(4), T
      INTEGER I
      COMMON /TABLE/ TABX, TABY
      IF (X .LE. TABX(1)) THEN
         TERP = TABY(1)
         RETURN
      END IF
      DO 30 I = 2, 4
         IF (X .LE. TABX(I)) THEN
            T = (X - TABX(I-1)) / (TABX(I) - TABX(I-1))
            TERP = TABY(I-1) + T * (TABY(I) - TABY(I-1))
            RETURN
         END IF
   30 CONTINUE
      TERP = TABY(4)
      RETURN
      END
C
      BLOCK DATA PHYSBD
      DOUBLE PRECISION CONST(5)
      CHARACTER*8 CNAME(5)
      INTEGER NUSED
      COMMON /PHYS/ CONST, NUSED
      COMMON /NAMES/ CNAME
      DATA CONST / 2.99792458D8, 6.62607015D-34, 1.380649D-23,
     &             6.02214076D23, 9.80665D0 /
      DATA NUSED / 5 /
      DATA CNAME / 'C', 'H', 'KB', 'NA', 'G0' /
      END
C
      BLOCK DATA
      LOGICAL VERBOS
      REAL TABX(4), TABY(4)
      COMMON /OPTS/ VERBOS
      COMMON /TABLE/ TABX, TABY
      DATA VERBOS / .TRUE. /
      DATA TABX / 0.0, 1.0, 2.0, 3.0 /
      DATA TABY / 1.0, 3.0, 2.0, 5.0 /
      END
