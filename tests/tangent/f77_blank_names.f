C radtap: -head BLNK -vars "X" -outvars "Y"
C sizes:
C Blanks are insignificant in fixed form: COMMON /BLK/ A B, C D names
C the two variables AB and CD the callee reads, and X 1 = ... assigns
C X1. Read as four names (or as X), the COMMON layout and the
C derivative would change silently.
      SUBROUTINE BLNK(X, Y)
      IMPLICIT NONE
      DOUBLE PRECISION X(2), Y, AB, CD, X1
      COMMON /BLK/ A B, C D
      X 1 = X(1) * X(2)
      A B = X 1 + X(1)
      C D = 2.0D0 * X (2)
      CALL US EC(Y)
      Y = Y + X 1 * A B
      END

      SUBROUTINE USEC(Y)
      IMPLICIT NONE
      DOUBLE PRECISION Y, AB, CD
      COMMON /BLK/ AB, CD
      Y = AB * CD + SIN(CD)
      END
