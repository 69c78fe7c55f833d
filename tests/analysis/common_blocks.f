C radtap: -head cmhead -vars "x" -outvars "y"
C COMMON /STATE/ is shared by CMHEAD and CMSTEP. P is active: set from
C X in CMHEAD, read by CMSTEP to build R, which reaches Y. Q is passive
C (set from the constant 2.5D0, useful but never varied) and the
C integer N only counts the loop. Activity is per COMMON member.
      SUBROUTINE CMHEAD(X, Y)
      DOUBLE PRECISION X, Y
      DOUBLE PRECISION P, Q, R
      INTEGER N
      COMMON /STATE/ P, Q, R, N
      P = X*X
      Q = 2.5D0
      N = 3
      CALL CMSTEP
      Y = R + Q
      END

      SUBROUTINE CMSTEP
      DOUBLE PRECISION P, Q, R
      INTEGER N, I
      COMMON /STATE/ P, Q, R, N
      R = 0.0D0
      DO 10 I = 1, N
         R = R + Q*P*P
 10   CONTINUE
      END
