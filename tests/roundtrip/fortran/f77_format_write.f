C     FORMAT statements with many edit descriptors, PRINT and
C     WRITE with both list-directed and formatted output.
      PROGRAM FMTWRT
      INTEGER I, K, IVAL(5)
      REAL R
      DOUBLE PRECISION D
      LOGICAL L
      CHARACTER*8 WORD
      DATA IVAL / 7, -42, 0, 12345, -1 /
      R = 3.25
      D = 2.0D0 / 3.0D0
      L = .FALSE.
      WORD = 'FORTRAN'
      PRINT *, 'LIST DIRECTED INTEGER', IVAL(1)
      PRINT 100, R, D
  100 FORMAT (' PRINT WITH FORMAT: ', F6.2, 2X, D15.8)
      WRITE (*,110) (IVAL(I), I = 1, 5)
  110 FORMAT (1X, 'I5: ', 5I5)
      WRITE (*,120) IVAL(4), IVAL(2)
  120 FORMAT (1X, 'I8.6: ', I8.6, ' I4: ', I4)
      WRITE (*,130) R, R, R
  130 FORMAT (1X, 'F8.3 = ', F8.3, ' E12.4 = ', E12.4,
     &        ' G12.4 = ', G12.4)
      WRITE (*,140) D
  140 FORMAT (1X, 'D20.12 = ', D20.12)
      WRITE (*,150) L, .NOT. L
  150 FORMAT (1X, 'LOGICALS: ', L2, L3)
      WRITE (*,160) WORD, WORD
  160 FORMAT (1X, 'A: [', A, '] A4: [', A4, ']')
      WRITE (*,170) 'T', 'X'
  170 FORMAT (1X, A, 5X, A, T30, 'COL30', TR2, 'AFTER')
      WRITE (*,180) (I, I * I, I = 1, 3)
  180 FORMAT (1X, 3('(', I1, ',', I2, ') '))
      WRITE (*,190)
  190 FORMAT (1X, 'LINE ONE', /, 1X, 'LINE TWO', //, 1X, 'LINE FOUR')
      K = 255
      WRITE (*,200) K, K, K
  200 FORMAT (1X, 'HEX ', Z4, ' OCT ', O5, ' BIN ', B10)
      WRITE (*,210) -R, 1.0E-3, 123456.7
  210 FORMAT (1X, SP, F8.2, SS, 1P, E12.3, 0P, F12.1)
      WRITE (*, '(1X, A, I3)') 'INLINE FORMAT', 42
      WRITE (*, 220) R
  220 FORMAT (1X, 'SCALE ', 2PE12.4)
      END
