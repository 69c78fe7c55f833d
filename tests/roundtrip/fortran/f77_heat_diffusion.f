C     Explicit finite-difference solution of the 1-D heat equation.
C     Grid data lives in a named COMMON block; parameters are set
C     with PARAMETER and the time loop uses labelled DO loops.
      PROGRAM HEAT
      IMPLICIT NONE
      INTEGER NX, NSTEP
      PARAMETER (NX = 11, NSTEP = 200)
      DOUBLE PRECISION U(NX), UNEW(NX), DX, DT, ALPHA, R
      COMMON /GRID/ U, UNEW
      COMMON /COEFS/ DX, DT, ALPHA, R
      INTEGER I, ISTEP
      DOUBLE PRECISION PI, TMAX
      PI = 4.0D0 * ATAN(1.0D0)
      ALPHA = 1.0D0
      DX = 1.0D0 / DBLE(NX - 1)
      DT = 0.4D0 * DX * DX / ALPHA
      R = ALPHA * DT / (DX * DX)
      WRITE (*,100) DX, DT, R
  100 FORMAT (1X, 'DX = ', F8.5, ' DT = ', F9.6, ' R = ', F6.3)
C     Initial condition: one half of a sine wave.
      DO 10 I = 1, NX
         U(I) = SIN(PI * DBLE(I - 1) * DX)
   10 CONTINUE
      DO 30 ISTEP = 1, NSTEP
         CALL STEP(NX)
         IF (MOD(ISTEP, 50) .EQ. 0) THEN
            TMAX = 0.0D0
            DO 20 I = 1, NX
               TMAX = MAX(TMAX, U(I))
   20       CONTINUE
            WRITE (*,110) ISTEP, DBLE(ISTEP) * DT, TMAX
         END IF
   30 CONTINUE
  110 FORMAT (1X, 'STEP ', I4, ' TIME ', F8.5, ' MAX U ', F10.7)
      WRITE (*,120) (U(I), I = 1, NX, 2)
  120 FORMAT (1X, 'U ODD NODES: ', 6F9.5)
      WRITE (*,130) EXP(-PI * PI * DBLE(NSTEP) * DT)
  130 FORMAT (1X, 'EXACT PEAK : ', F10.7)
      END
C
      SUBROUTINE STEP(N)
      IMPLICIT NONE
      INTEGER N, I
      DOUBLE PRECISION U(11), UNEW(11), DX, DT, ALPHA, R
      COMMON /GRID/ U, UNEW
      COMMON /COEFS/ DX, DT, ALPHA, R
      UNEW(1) = 0.0D0
      UNEW(N) = 0.0D0
      DO 40 I = 2, N - 1
         UNEW(I) = U(I) + R * (U(I-1) - 2.0D0 * U(I) + U(I+1))
   40 CONTINUE
      DO 50 I = 1, N
         U(I) = UNEW(I)
   50 CONTINUE
      RETURN
      END
