C     CHARACTER*8 and other character lengths: concatenation,
C     substrings, LEN, INDEX, ICHAR/CHAR and comparisons.
      PROGRAM CHARS
      CHARACTER*8 FIRST, LAST
      CHARACTER*16 FULL
      CHARACTER*1 C
      CHARACTER*26 ALPHA
      CHARACTER*(*) GREET
      PARAMETER (GREET = 'HELLO, WORLD')
      INTEGER I, K, NVOW
      FIRST = 'JOHN'
      LAST = 'BACKUS'
      FULL = FIRST // LAST
      WRITE (*,100) FULL
  100 FORMAT (1X, 'FULL = [', A, ']')
      FULL = FIRST(1:4) // ' ' // LAST
      WRITE (*,100) FULL
      WRITE (*,*) 'LEN(FULL) =', LEN(FULL), ' LEN(GREET) =', LEN(GREET)
      K = INDEX(GREET, ',')
      WRITE (*,110) K, GREET(1:K-1), GREET(K+2:)
  110 FORMAT (1X, 'COMMA AT ', I2, ' LEFT [', A, '] RIGHT [', A, ']')
      DO 10 I = 1, 26
         ALPHA(I:I) = CHAR(ICHAR('A') + I - 1)
   10 CONTINUE
      WRITE (*,*) 'ALPHABET: ', ALPHA
      NVOW = 0
      DO 20 I = 1, LEN(GREET)
         C = GREET(I:I)
         IF (C .EQ. 'A' .OR. C .EQ. 'E' .OR. C .EQ. 'I' .OR.
     &       C .EQ. 'O' .OR. C .EQ. 'U') NVOW = NVOW + 1
   20 CONTINUE
      WRITE (*,*) 'VOWELS IN GREETING =', NVOW
      IF (FIRST .LT. LAST) THEN
         WRITE (*,*) FIRST, ' SORTS BEFORE ', LAST
      ELSE
         WRITE (*,*) FIRST, ' SORTS AFTER ', LAST
      END IF
      IF (LLT('ABC', 'ABD')) WRITE (*,*) 'LLT ABC ABD TRUE'
      CALL REVERS(LAST)
      WRITE (*,*) 'REVERSED: [', LAST, ']'
      FULL = 'Mixed case Text'
      CALL UPPER(FULL)
      WRITE (*,*) 'UPPER: [', FULL, ']'
      WRITE (*,*) 'QUOTE TEST: ', 'IT''S FINE'
      END
C
      SUBROUTINE REVERS(S)
      CHARACTER*(*) S
      CHARACTER*1 T
      INTEGER I, N
      N = LEN(S)
      DO 30 I = 1, N / 2
         T = S(I:I)
         S(I:I) = S(N-I+1:N-I+1)
         S(N-I+1:N-I+1) = T
   30 CONTINUE
      RETURN
      END
C
      SUBROUTINE UPPER(S)
      CHARACTER*(*) S
      INTEGER I, IC
      DO 40 I = 1, LEN(S)
         IC = ICHAR(S(I:I))
         IF (IC .GE. ICHAR('a') .AND. IC .LE. ICHAR('z'))
     &      S(I:I) = CHAR(IC - 32)
   40 CONTINUE
      RETURN
      END
