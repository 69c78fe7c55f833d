C radtap: -head TYPINT -vars "X" -outvars "Y"
C sizes: N=4
C Intrinsic function names declared with a type, as F77 codes do (DOUBLE PRECISION DSQRT,
C DEXP, ERF): still the intrinsics, since no EXTERNAL says otherwise (refused before as
C routines without source). The file also defines a function ERF of its own, as codes
C written before Fortran 2008 did: gfortran calls the intrinsic ERF in TYPINT all the same,
C and so does the derivative (before, it differentiated this function instead).
      SUBROUTINE TYPINT(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y, DSQRT, DEXP, ERF
      Y = 0.0D0
      DO 10 I = 1, N
        Y = Y + DSQRT(X(I)) * DEXP(-X(I)) + ERF(X(I))
   10 CONTINUE
      END

      DOUBLE PRECISION FUNCTION ERF(T)
      DOUBLE PRECISION T
      ERF = T**3
      END
