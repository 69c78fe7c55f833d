* Continuation lines with several continuation characters,
* comment lines starting with an asterisk, and long statements.
C     Comments may also use the letter C in column 1.
      PROGRAM CONTIN
      INTEGER I, ITOTAL
      REAL COEF(5), POLY, X
      CHARACTER*40 MSG
*     A DATA statement spread over lines with different markers.
      DATA COEF / 1.0,
     1            -2.0,
     2            0.5,
     3            0.25,
     4            -0.125 /
      ITOTAL = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 +
     +         13 + 14 + 15 + 16 + 17 + 18 + 19 + 20 + 21 + 22 +
     $         23 + 24 + 25
      WRITE (*,*) 'SUM 1..25 =', ITOTAL
C     Comment lines between continuation lines are allowed.
      MSG = 'THIS MESSAGE IS BUILT ' //
C     ... from several pieces
     &      'FROM PIECES'
      WRITE (*,*) MSG
      DO 10 I = 0, 4
         X = 0.5 * REAL(I)
         POLY = COEF(1) + X * (COEF(2) + X * (COEF(3) +
     &          X * (COEF(4) + X * COEF(5))))
         WRITE (*,100) X,
     &                 POLY
   10 CONTINUE
  100 FORMAT (1X, 'P(', F4.2, ') = ',
     &        F10.6)
*     A call whose argument list spans several lines.
      CALL SHOW3(1,
     &           2,
     &           3)
      IF (ITOTAL .GT. 300 .AND.
     &    ITOTAL .LT. 400) THEN
         WRITE (*,*) 'ITOTAL IS BETWEEN 300 AND 400'
      END IF
      WRITE (*,*) 'A STRING CONSTANT, CONTINUED EXACTLY AT COLUMN SEVENT
     &Y-TWO, ON THE NEXT LINE OF SOURCE'
      END
*
      SUBROUTINE SHOW3(I,
     &                 J,
     &                 K)
      INTEGER I, J,
     &        K
      WRITE (*,200) I, J, K, I + J +
     &   K
  200 FORMAT (1X, 'SHOW3: ', 3I3, ' TOTAL ', I3)
      RETURN
      END
