C radtap: -head gsum -vars "x" -outvars "s"
C Loop written with IF/GOTO and labels: S accumulates X(I)*X(I).
C S = 0 is not varied, but the back edge GOTO 10 makes S varied at
C label 10 (union over predecessors). S is used only linearly, so it
C is not TBR; the integer I only controls the loop (diff-live control).
      SUBROUTINE GSUM(X, N, S)
      INTEGER N, I
      DOUBLE PRECISION X(N), S
      S = 0.0D0
      I = 1
 10   IF (I .GT. N) GOTO 20
      S = S + X(I)*X(I)
      I = I + 1
      GOTO 10
 20   CONTINUE
      END
