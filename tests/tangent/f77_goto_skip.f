C radtap: -head SKIP -vars "X" -outvars "Y"
C sizes: N=7
C F77 forward GOTOs (issue 21 item 8): IF (..) GOTO 15 over part of a
C loop body, nested inside another skip (GOTO 18), and GOTO 10 to a
C CONTINUE just before the loop's terminal 20 CONTINUE (a CYCLE); a
C skip over a whole labelled DO at the top level. The adjoint keeps
C every loop structured (no jumps); the corpus suites check the numbers.
      SUBROUTINE SKIP(N, X, Y)
      INTEGER N, I, J
      DOUBLE PRECISION X(N), Y, T
      Y = 0.0D0
      DO 20 I = 1, N
        T = X(I)*X(I)
        IF (X(I) .GT. 0.9D0) GOTO 10
        IF (I .EQ. 2) GOTO 18
        IF (X(I) .LT. 0.3D0) GOTO 15
        T = SIN(T) + Y*X(I)
        Y = Y + T*0.5D0
   15   Y = Y + 0.1D0*T
   18   Y = Y + 0.01D0*T*T
   10   CONTINUE
   20 CONTINUE
      IF (Y .GT. 100.0D0) GOTO 40
      DO 30 J = 1, N
        Y = Y + 0.02D0*X(J)*Y
   30 CONTINUE
   40 Y = Y*X(1)
      END
