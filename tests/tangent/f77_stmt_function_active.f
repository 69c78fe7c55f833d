C radtap: -head PROFIL -vars "X C" -outvars "Y S"
C sizes: N=6
C     Statement functions applied to active values, inlined before
C     the analyses: two arguments with one used twice, a nested
C     statement function, a body reading an active local (A) of the
C     routine, compound, literal and mixed-type actuals (C*2,
C     DBLE(I)*C), a continued statement, and uses inside a DO loop and
C     an IF condition.
      SUBROUTINE PROFIL(N, X, C, Y, S)
      INTEGER N, I
      DOUBLE PRECISION X(N), C, Y(N), S, A, Z, U, V, W
      DOUBLE PRECISION GAUSS, BLEND, RAMP
      GAUSS(U, W) = EXP(-(U - W)**2/(2.0D0*W))
      BLEND(U, V) = A*GAUSS(U, V) + (1.0D0 - A)*U*V
      RAMP(Z) = Z*Z/(1.0D0 + Z)
      A = 0.3D0 + 0.1D0*C
      S = 0.0D0
      DO 10 I = 1, N
         Y(I) = BLEND(X(I), C + 0.1D0*I) + RAMP(1.5D0) + RAMP(C*2)
     &        + 0.01D0*RAMP(DBLE(I)*C)
         IF (GAUSS(X(I), C) .GT. 0.0D0) THEN
            S = S + RAMP(X(I)*C)
         END IF
   10 CONTINUE
      S = S + BLEND(S/N, 2.0D0*C)
      RETURN
      END
