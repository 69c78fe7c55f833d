C     SAVE statement for persistent local state and ENTRY points
C     giving several names to one subprogram body.
      PROGRAM ENTSAV
      INTEGER I, NEXTID, RESETC, IVAL
      REAL AREA, CIRCLE, SQUARE
      DO 10 I = 1, 3
         IVAL = NEXTID()
         WRITE (*,100) I, IVAL
   10 CONTINUE
  100 FORMAT (1X, 'CALL ', I1, ' NEXTID = ', I4)
      IVAL = RESETC(100)
      WRITE (*,*) 'VALUE BEFORE RESET =', IVAL
      WRITE (*,100) 4, NEXTID()
      WRITE (*,100) 5, NEXTID()
      CALL COUNTR
      CALL COUNTR
      CALL COUNTR
      WRITE (*,110) AREA(2.0), CIRCLE(1.0), SQUARE(3.0)
  110 FORMAT (1X, 'AREA=', F8.3, ' CIRCLE=', F8.3, ' SQUARE=', F8.3)
      END
C
C     A counter function with an ENTRY that resets it and returns
C     the previous value.
      INTEGER FUNCTION NEXTID()
      INTEGER RESETC, ISTART
      INTEGER NCUR
      SAVE NCUR
      DATA NCUR / 0 /
      NCUR = NCUR + 1
      NEXTID = NCUR
      RETURN
      ENTRY RESETC(ISTART)
      RESETC = NCUR
      NCUR = ISTART
      RETURN
      END
C
      SUBROUTINE COUNTR
      INTEGER NCALLS
      DOUBLE PRECISION ACC
      SAVE
      DATA NCALLS, ACC / 0, 1.0D0 /
      NCALLS = NCALLS + 1
      ACC = ACC * 2.0D0
      WRITE (*,200) NCALLS, ACC
  200 FORMAT (1X, 'COUNTR CALL ', I2, ' ACC = ', F8.2)
      RETURN
      END
C
C     Function with multiple ENTRY points sharing a result type.
      REAL FUNCTION AREA(R)
      REAL R, PI
      PARAMETER (PI = 3.1415927)
      AREA = R * R
      RETURN
      ENTRY CIRCLE(R)
      CIRCLE = PI * R * R
      RETURN
      ENTRY SQUARE(R)
      SQUARE = R * R
      RETURN
      END
