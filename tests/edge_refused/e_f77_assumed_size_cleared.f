C     radtap: -head "HEAD(Y)/(X)"
C     sizes: N=4
C     An assumed-size work array not varied where it is first passed whole to a routine
C     whose dummy is assumed-size too: its derivative cannot be cleared there (the extent is
C     unknown; `Wd = 0` did not compile): refused at the call in tangent and vector mode,
C     or cleared over -size W=N.
      SUBROUTINE HEAD(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y, W(10)
      DO 10 I = 1, N
        W(I) = 1.0D0
   10 CONTINUE
      Y = 0.0D0
      CALL INNER(N, X, W, Y)
      RETURN
      END
      SUBROUTINE INNER(N, X, W, Y)
      INTEGER N
      DOUBLE PRECISION X(N), W(*), Y
      CALL ACC(N, X, Y)
      CALL ACC(N, W, Y)
      W(1) = X(1)
      CALL ACC(N, W, Y)
      RETURN
      END
      SUBROUTINE ACC(N, V, Y)
      INTEGER N, I
      DOUBLE PRECISION V(*), Y
      DO 10 I = 1, N
        Y = Y + V(I)**2
   10 CONTINUE
      RETURN
      END
