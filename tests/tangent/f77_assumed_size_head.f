C radtap: -head PLATE -vars "W X" -outvars "Y"
C sizes: N=3 LDW=4 W=LDW,N X=N
C     A head whose arrays are assumed-size, as F77 libraries declare
C     them (W(LDW,*), X(*)). The validate driver's interface declared
C     them assumed-shape (W(:,:)): the routine got a descriptor instead
C     of the data (NaN, or zeros and an INCONCLUSIVE verdict).
      SUBROUTINE PLATE(N, LDW, W, X, Y)
      INTEGER N, LDW
      DOUBLE PRECISION W(LDW, *), X(*), Y
      INTEGER I, J
      Y = 0.0D0
      DO 20 J = 1, N
         DO 10 I = 1, N
            Y = Y + W(I, J) * SIN(X(J)) + 0.5D0 * W(I, J)**2
   10    CONTINUE
   20 CONTINUE
      Y = Y + X(1) * X(N)
      END
