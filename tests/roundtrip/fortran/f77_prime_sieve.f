C     Sieve of Eratosthenes with a LOGICAL array, greatest common
C     divisor by Euclid's algorithm, and integer factorisation.
      PROGRAM SIEVE
      INTEGER NMAX
      PARAMETER (NMAX = 100)
      LOGICAL ISPRIM(NMAX)
      INTEGER I, J, NP, PRIMES(30), IGCD, ILCM
      ISPRIM(1) = .FALSE.
      DO 10 I = 2, NMAX
         ISPRIM(I) = .TRUE.
   10 CONTINUE
      DO 30 I = 2, 10
         IF (.NOT. ISPRIM(I)) GO TO 30
         DO 20 J = I * I, NMAX, I
            ISPRIM(J) = .FALSE.
   20    CONTINUE
   30 CONTINUE
      NP = 0
      DO 40 I = 1, NMAX
         IF (ISPRIM(I)) THEN
            NP = NP + 1
            PRIMES(NP) = I
         END IF
   40 CONTINUE
      WRITE (*,100) NP
  100 FORMAT (1X, 'PRIMES BELOW 100: ', I3)
      WRITE (*,110) (PRIMES(I), I = 1, NP)
  110 FORMAT (1X, 10I5)
      WRITE (*,120) 'GCD', 84, 36, IGCD(84, 36)
      WRITE (*,120) 'GCD', 17, 5, IGCD(17, 5)
      WRITE (*,120) 'LCM', 4, 6, ILCM(4, 6)
  120 FORMAT (1X, A3, '(', I3, ',', I3, ') = ', I4)
      CALL FACTOR(360)
      CALL FACTOR(97)
      CALL FACTOR(1001)
      END
C
      INTEGER FUNCTION IGCD(IA, IB)
      INTEGER IA, IB, M, N, K
      M = IA
      N = IB
   50 IF (N .EQ. 0) GO TO 60
      K = MOD(M, N)
      M = N
      N = K
      GO TO 50
   60 IGCD = M
      RETURN
      END
C
      INTEGER FUNCTION ILCM(IA, IB)
      INTEGER IA, IB, IGCD
      ILCM = (IA / IGCD(IA, IB)) * IB
      RETURN
      END
C
      SUBROUTINE FACTOR(N)
      INTEGER N, M, IDIV, NF, IFAC(20)
      M = N
      NF = 0
      IDIV = 2
   70 IF (M .EQ. 1) GO TO 90
      IF (MOD(M, IDIV) .EQ. 0) THEN
         NF = NF + 1
         IFAC(NF) = IDIV
         M = M / IDIV
      ELSE
         IDIV = IDIV + 1
      END IF
      GO TO 70
   90 WRITE (*,200) N, (IFAC(I), I = 1, NF)
  200 FORMAT (1X, I5, ' =', 10I4)
      RETURN
      END
