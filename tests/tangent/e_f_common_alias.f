C radtap: -head CMALS -vars "X" -outvars "Y"
C sizes:
C     COMMON /BLK/ seen under different names and shapes in two routines:
C     an array V(3) in one, three scalars A B C in the other.
      SUBROUTINE CMALS(X, Y)
      DOUBLE PRECISION X(3), Y
      DOUBLE PRECISION V(3)
      COMMON /BLK/ V
      INTEGER I
      DO 10 I = 1, 3
         V(I) = X(I)*X(I)
 10   CONTINUE
      CALL MIX
      Y = V(1) + V(2)*V(3)
      END

      SUBROUTINE MIX
      DOUBLE PRECISION A, B, C
      COMMON /BLK/ A, B, C
      A = A*B + C
      C = C*A
      END
