C     radtap: -head "HEAD(Y)/(X)"
C     sizes: N=4
C     An assumed-size work array with no derivative in the routine passing it whole to a
C     dummy that has one: a zero array like it cannot be declared (`dummyzerod(*)` did not
C     compile): refused at the call in tangent and vector mode.
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
