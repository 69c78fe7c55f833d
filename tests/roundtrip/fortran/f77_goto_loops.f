C     Control flow in classic FORTRAN 77: unconditional GOTO,
C     computed GOTO, arithmetic IF and labelled DO loops.
      PROGRAM GOTOLP
      INTEGER I, J, K, N, ISUM
      REAL X
      N = 0
C     A loop built only from IF and GOTO.
    5 N = N + 1
      IF (N .LT. 4) GO TO 5
      WRITE (*,*) 'AFTER GOTO LOOP N =', N
C     Computed GOTO dispatch on K = 1, 2, 3.
      DO 40 K = 1, 3
         GO TO (10, 20, 30) K
   10    WRITE (*,*) 'COMPUTED GOTO BRANCH ONE'
         GO TO 40
   20    WRITE (*,*) 'COMPUTED GOTO BRANCH TWO'
         GO TO 40
   30    WRITE (*,*) 'COMPUTED GOTO BRANCH THREE'
   40 CONTINUE
C     Arithmetic IF on negative, zero and positive values.
      DO 80 I = -1, 1
         X = REAL(I)
         IF (X) 50, 60, 70
   50    WRITE (*,*) 'ARITHMETIC IF: NEGATIVE'
         GOTO 80
   60    WRITE (*,*) 'ARITHMETIC IF: ZERO'
         GOTO 80
   70    WRITE (*,*) 'ARITHMETIC IF: POSITIVE'
   80 CONTINUE
C     Nested loops sharing one terminal statement.
      ISUM = 0
      DO 100 I = 1, 4
      DO 100 J = 1, I
         ISUM = ISUM + I * J
  100 CONTINUE
      WRITE (*,*) 'SHARED TERMINAL SUM =', ISUM
C     Loop with negative step and a loop ending on an assignment.
      ISUM = 0
      DO 110 I = 10, 1, -3
  110 ISUM = ISUM + I
      WRITE (*,*) 'NEGATIVE STEP SUM =', ISUM
C     Early exit from a DO loop with GOTO.
      DO 120 I = 1, 100
         IF (I * I .GT. 50) GO TO 130
  120 CONTINUE
  130 WRITE (*,*) 'FIRST I WITH I*I > 50 IS', I
C     Zero-trip loop.
      K = 0
      DO 140 I = 5, 1
         K = K + 1
  140 CONTINUE
      WRITE (*,*) 'ZERO TRIP COUNT =', K
      STOP
      END
