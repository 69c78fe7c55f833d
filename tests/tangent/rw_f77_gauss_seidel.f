C radtap: -head GSPOIS -vars "F BC" -outvars "U RES"
C sizes: N=6 NIT=5
C     Gauss-Seidel relaxation of the 5-point Laplacian on an N by N
C     interior grid, written in the style of 1970s elliptic solvers:
C     labelled DO loops ending on CONTINUE, a boundary filled from a
C     one-dimensional array BC, the grid spacing in a COMMON block set
C     by a BLOCK-DATA-like setup routine, implicit typing for the
C     scalars (IMPLICIT DOUBLE PRECISION), and a residual norm.
      SUBROUTINE GSSET(N)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      COMMON /GRID/ H, H2, RELAX
      H = 1.0D0/DBLE(N + 1)
      H2 = H*H
      RELAX = 1.0D0
      RETURN
      END

      SUBROUTINE GSPOIS(N, NIT, F, BC, U, RES)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      INTEGER N, NIT
      DIMENSION F(N, N), BC(4), U(0:N+1, 0:N+1)
      COMMON /GRID/ H, H2, RELAX
      CALL GSSET(N)
      DO 20 J = 0, N + 1
         DO 10 I = 0, N + 1
            U(I, J) = 0.0D0
   10    CONTINUE
   20 CONTINUE
C     Dirichlet data: one value per side, tapered toward the corners.
      DO 30 K = 1, N
         S = DBLE(K)*H
         TAPER = 4.0D0*S*(1.0D0 - S)
         U(0, K) = BC(1)*TAPER
         U(N+1, K) = BC(2)*TAPER
         U(K, 0) = BC(3)*TAPER
         U(K, N+1) = BC(4)*TAPER
   30 CONTINUE
      DO 60 IT = 1, NIT
         DO 50 J = 1, N
            DO 40 I = 1, N
               GS = 0.25D0*(U(I-1, J) + U(I+1, J) + U(I, J-1)
     &              + U(I, J+1) + H2*F(I, J))
               U(I, J) = U(I, J) + RELAX*(GS - U(I, J))
   40       CONTINUE
   50    CONTINUE
   60 CONTINUE
      RES = 0.0D0
      DO 80 J = 1, N
         DO 70 I = 1, N
            R = F(I, J) + (U(I-1, J) + U(I+1, J) + U(I, J-1)
     &          + U(I, J+1) - 4.0D0*U(I, J))/H2
            RES = RES + R*R
   70    CONTINUE
   80 CONTINUE
      RES = DSQRT(RES)/DBLE(N)
      RETURN
      END
