C     Block IF / ELSE IF / ELSE / END IF, logical IF statements,
C     LOGICAL variables and relational operators.
      PROGRAM BLKIF
      INTEGER I, NEVEN, NODD, ICLASS
      REAL SCORE(6)
      LOGICAL BIG, SMALL, BOTH, EITHER
      CHARACTER*8 GRADE
      DATA SCORE / 95.0, 82.5, 74.0, 61.0, 45.5, 88.0 /
      NEVEN = 0
      NODD = 0
      DO 10 I = 1, 6
         IF (SCORE(I) .GE. 90.0) THEN
            GRADE = 'EXCELENT'
         ELSE IF (SCORE(I) .GE. 80.0) THEN
            GRADE = 'GOOD'
         ELSE IF (SCORE(I) .GE. 70.0) THEN
            GRADE = 'FAIR'
         ELSE IF (SCORE(I) .GE. 50.0) THEN
            GRADE = 'PASS'
         ELSE
            GRADE = 'FAIL'
         END IF
         WRITE (*,100) I, SCORE(I), GRADE
         IF (MOD(I, 2) .EQ. 0) NEVEN = NEVEN + 1
         IF (MOD(I, 2) .NE. 0) NODD = NODD + 1
   10 CONTINUE
  100 FORMAT (1X, 'STUDENT ', I1, ' SCORE ', F5.1, ' GRADE ', A8)
      WRITE (*,*) 'EVEN, ODD =', NEVEN, NODD
      DO 20 I = 1, 6
         BIG = SCORE(I) .GT. 80.0
         SMALL = SCORE(I) .LT. 50.0
         BOTH = BIG .AND. SMALL
         EITHER = BIG .OR. SMALL
         IF (.NOT. EITHER) THEN
            ICLASS = 0
         ELSEIF (BIG) THEN
            ICLASS = 1
         ELSE
            ICLASS = -1
         ENDIF
         WRITE (*,110) I, BIG, SMALL, BOTH, EITHER, ICLASS
   20 CONTINUE
  110 FORMAT (1X, I2, 4L3, I4)
C     Nested block IFs.
      DO 30 I = 1, 3
         IF (I .LE. 2) THEN
            IF (I .EQ. 1) THEN
               WRITE (*,*) 'NESTED: ONE'
            ELSE
               WRITE (*,*) 'NESTED: TWO'
            END IF
         ELSE
            WRITE (*,*) 'NESTED: OTHER'
         END IF
   30 CONTINUE
      IF (BIG .EQV. SMALL) WRITE (*,*) 'EQV HOLDS'
      IF (BIG .NEQV. SMALL) WRITE (*,*) 'NEQV HOLDS'
      END
