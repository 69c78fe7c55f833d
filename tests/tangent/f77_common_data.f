C     radtap: -head "SCAL(Y)/(X)"
C     sizes: N=4
C     DATA statements on COMMON members inside subroutines (outside BLOCK DATA: an
C     extension gfortran accepts and old codes use), one beside a DATA on a local: the
C     derivative files repeated `DATA RHO /1.2D0/`, so the COMMON block was initialised in
C     two objects (`multiple definition of phys_` at link, every mode); they now keep only
C     the DATA on the local (hunt 12).
      SUBROUTINE SCAL(N, X, Y)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION X(N)
      COMMON /PHYS/ RHO, G
      DATA RHO /1.2D0/, G /0.5D0/
      DATA C /0.25D0/
      Y = 0.D0
      DO 10 I = 1, N
   10 Y = Y + RHO*X(I)**2 + C*G*SIN(X(I))
      CALL SHIFT(N, X, Y)
      RETURN
      END

      SUBROUTINE SHIFT(N, X, Y)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      DIMENSION X(N)
      COMMON /PHYS/ RHO, G
      Y = Y*G + RHO*X(1)
      RETURN
      END
