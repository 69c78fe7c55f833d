C     EQUIVALENCE, DATA and PARAMETER statements.
      PROGRAM EQVDAT
      INTEGER N
      PARAMETER (N = 6)
      INTEGER IA(N), IB(2, 3), I, J
      INTEGER IPAIR(2), IFIRST, ISECND
      REAL A(4), B(4)
      DOUBLE PRECISION D1, D2
      LOGICAL FLAG
      CHARACTER*8 NAME
      EQUIVALENCE (IA(1), IB(1,1))
      EQUIVALENCE (IPAIR(1), IFIRST), (IPAIR(2), ISECND)
      DATA A / 1.0, 2.0, 3.0, 4.0 /
      DATA B / 4*0.5 /
      DATA D1, D2 / 1.5D0, -2.25D0 /
      DATA FLAG / .TRUE. /
      DATA NAME / 'EQVDATA ' /
      DATA IPAIR / 11, 22 /
C     Filling IA through the 1-D view fills IB too.
      DO 10 I = 1, N
         IA(I) = I * 10
   10 CONTINUE
      WRITE (*,*) 'IB COLUMN-MAJOR VIEW:'
      DO 30 I = 1, 2
         WRITE (*,100) (IB(I, J), J = 1, 3)
   30 CONTINUE
  100 FORMAT (1X, 3I6)
      WRITE (*,*) 'IFIRST, ISECND =', IFIRST, ISECND
      ISECND = 99
      WRITE (*,*) 'IPAIR AFTER CHANGE =', IPAIR(1), IPAIR(2)
      WRITE (*,110) (A(I) + B(I), I = 1, 4)
  110 FORMAT (1X, 'A+B = ', 4F7.2)
      WRITE (*,120) D1 * D2
  120 FORMAT (1X, 'D1*D2 = ', F12.6)
      IF (FLAG) WRITE (*,*) 'FLAG IS TRUE, NAME = ', NAME
      CALL SHOWP
      END
C
      SUBROUTINE SHOWP
      REAL PI, TWOPI
      PARAMETER (PI = 3.14159265, TWOPI = 2.0 * PI)
      INTEGER ITAB(3, 2)
      DATA ((ITAB(I, J), I = 1, 3), J = 1, 2) / 1, 2, 3, 4, 5, 6 /
      WRITE (*,200) PI, TWOPI
  200 FORMAT (1X, 'PI = ', F10.6, ' TWOPI = ', F10.6)
      WRITE (*,210) ((ITAB(I, J), J = 1, 2), I = 1, 3)
  210 FORMAT (1X, 'ITAB ROWS: ', 6I3)
      RETURN
      END
