C     radtap: -head "RESID(F)/(X)"
C     sizes: N=4
C     Legacy diagnostics: a WRITE naming FORMAT statements that sit after the final RETURN
C     and between statements. The adjoint kept the WRITE but dropped the FORMATs, and its
C     output did not compile.
      SUBROUTINE RESID(N, X, F)
      INTEGER N, I
      DOUBLE PRECISION X(N), F, S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I)*X(I)*DBLE(I)
   10 CONTINUE
  800 FORMAT (' RESID: N =', I5)
      IF (S .GT. 1.0D30) WRITE (6, 800) N
      F = DSQRT(S + 1.0D0)
      IF (F .GT. 1.0D30) WRITE (6, 900) F
      RETURN
  900 FORMAT (' LARGE F =', 1PE12.4)
      END
