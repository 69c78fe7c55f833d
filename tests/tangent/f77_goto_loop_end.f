C radtap: -head g77 -vars "X" -outvars "Y Z"
C sizes: N=9
C F77 IF (..) GOTO inside DO loops (issue 21 item 8): to the CONTINUE that
C ends the loop (a CYCLE) and to the statement just after it (an EXIT); the
C adjoint keeps the loops. A DO WHILE-style loop by GOTO out of a nested DO.
      SUBROUTINE G77(N, X, Y, Z)
      INTEGER N, I, J
      DOUBLE PRECISION X(N), Y, Z
      Y = 1.0D0
      Z = 0.0D0
      DO 10 I = 1, N
        IF (MOD(I, 3) .EQ. 0) GOTO 10
        Y = Y*(1.0D0 + 0.2D0*SIN(X(I)))
        IF (I .GT. N - 2) GOTO 20
        Y = Y + 0.1D0*X(I)*Y
   10 CONTINUE
   20 Z = Y*X(1)
      DO 40 I = 1, N
        DO 30 J = 1, N
          IF (J .GT. I) GOTO 35
          IF (MOD(I + J, 2) .EQ. 1) GOTO 30
          Z = Z + 0.01D0*X(I)*X(J)*Y
   30   CONTINUE
   35   Y = Y + 0.05D0*Z*X(I)
        IF (I .EQ. 5) GOTO 50
   40 CONTINUE
   50 Z = Z + Y
      END
