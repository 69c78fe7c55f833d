C radtap: -head "OUTER(Y)/(X Z)"
C sizes:
C     In the shape of msise00 (NRLMSISE-00): a fixed-form file mixing a routine whose
C     arguments are declared INTENT(IN) with an F77 one typed implicitly, called with them,
C     and F2008's ERROR STOP. `error stop` became `errorstop` (blanks closed up: AD010), and
C     the derivative of an implicitly typed dummy was declared INTENT(INOUT), so the call
C     passing the caller's INTENT(IN) derivative did not compile; it has no INTENT now, as
C     its primal.
      SUBROUTINE OUTER(X, Z, Y)
      REAL*8, INTENT(IN) :: X, Z
      REAL*8, INTENT(OUT) :: Y
      CALL INNER(X, Z, Y)
      END
      SUBROUTINE INNER(A, B, C)
      IMPLICIT REAL*8 (A-H,O-Z)
      IF (A .LT. -1D10) THEN
        error stop
      END IF
      C = A*SIN(B) + B**2
      END
