! radtap: -head rc_head -vars "x" -outvars "y"
! sizes:
! Two modules with a variable `c1` each; the head's module takes the second one's under a
! rename `c1b`, which is also the name the adjoint would give the first one's `c1`. Generated
! names avoid the local names of renames (the adjoint did not compile before: "c1b is an
! ambiguous reference").
module rc_consts_a
  implicit none
  real(8) :: c1
end module rc_consts_a

module rc_consts_b
  implicit none
  real(8) :: c1
  real(8), parameter :: c2 = 0.25d0
end module rc_consts_b

module rc_model
  use rc_consts_a
  use rc_consts_b, only: c1b => c1, c2
  implicit none
contains
  subroutine rc_head(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    c1 = x(1)*x(2)
    c1b = sin(x(1)) + c2*x(2)
    y = c1*c1b + c1b**2
  end subroutine rc_head
end module rc_model
