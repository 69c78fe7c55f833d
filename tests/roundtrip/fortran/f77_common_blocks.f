C     Test of named and blank COMMON blocks shared between units.
C     Uses default implicit typing (I-N integer, others real).
      PROGRAM COMBLK
      INTEGER NMAX
      PARAMETER (NMAX = 10)
      COMMON /SIZES/ N, M
      COMMON /VALS/ X(NMAX), TOTAL
      COMMON COUNT, SCALE
      N = 6
      M = 3
      COUNT = 0.0
      SCALE = 2.5
      CALL FILL
      CALL ACCUM
      WRITE (*,*) 'N, M       =', N, M
      WRITE (*,100) TOTAL, COUNT
  100 FORMAT (1X, 'TOTAL = ', F10.4, '  COUNT = ', F6.1)
      DO 10 I = 1, N
         WRITE (*,110) I, X(I)
   10 CONTINUE
  110 FORMAT (1X, 'X(', I2, ') = ', F9.3)
      CALL RESCAL(0.5)
      CALL ACCUM
      WRITE (*,100) TOTAL, COUNT
      END
C
C     Fill the array in /VALS/ using the sizes from /SIZES/.
      SUBROUTINE FILL
      COMMON /SIZES/ N, M
      COMMON /VALS/ X(10), TOTAL
      COMMON COUNT, SCALE
      DO 20 I = 1, N
         X(I) = SCALE * REAL(I * M)
   20 CONTINUE
      COUNT = COUNT + 1.0
      RETURN
      END
C
C     Accumulate the sum; note different local names for COMMON.
      SUBROUTINE ACCUM
      COMMON /SIZES/ NN, MM
      COMMON /VALS/ Y(10), SUM
      COMMON CNT, SCL
      SUM = 0.0
      DO 30 K = 1, NN
         SUM = SUM + Y(K)
   30 CONTINUE
      CNT = CNT + 1.0
      RETURN
      END
C
      SUBROUTINE RESCAL(FAC)
      COMMON /SIZES/ N, M
      COMMON /VALS/ X(10), TOTAL
      COMMON COUNT, SCALE
      DO 40 I = 1, N
         X(I) = X(I) * FAC
   40 CONTINUE
      SCALE = SCALE * FAC
      COUNT = COUNT + 1.0
      RETURN
      END
