! radtap: -head imf_h -vars "x" -outvars "y"
! sizes:
! A module function whose internal function reads the host's dummy `x` by host association,
! referenced in an expression of another module procedure (was refused: "`foo` has internal
! procedures that use its argument `x`").
module imf_mod
  implicit none
contains
  real(8) function foo(x)
    real(8), intent(in) :: x
    foo = g() + 1.0d0
  contains
    real(8) function g()
      g = sin(x)*x
    end function g
  end function foo
  subroutine imf_h(x, y)
    real(8), intent(in) :: x
    real(8), intent(out) :: y
    y = 2.0d0*foo(x) + foo(x*x)
  end subroutine imf_h
end module imf_mod
