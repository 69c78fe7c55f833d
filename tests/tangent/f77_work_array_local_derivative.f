C radtap: -head TOP -vars "Y" -outvars "Y"
C sizes: N=4
C A work array dummy W typed by IMPLICIT and DIMENSION, active but no independent: its
C derivative WD is a local of TOP_D (it had INTENT(INOUT) and did not compile).
      SUBROUTINE TOP(N, Y, W)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION Y(N), W(N)
      DO 10 I = 1, N
         Y(I) = W(I) + Y(I)
         W(I) = Y(I)*Y(I)
   10 CONTINUE
      END
