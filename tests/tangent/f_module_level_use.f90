! radtap: -head mlu_top -vars "x" -outvars "f"
! sizes:
! A module that says `use mlu_vars` at module level (host association): its procedure writes
! the module array `a`, which a call then overwrites in part, so the adjoint records `a`
! before the call. The adjoint refused it ("memory not visible in this procedure") unless
! the USE was moved into the procedure.
module mlu_vars
  implicit none
  real(8) :: a(3)
end module mlu_vars

module mlu_work
  use mlu_vars
  implicit none
contains
  subroutine mlu_sq(t)
    real(8), intent(inout) :: t
    t = t*t + sin(t)
  end subroutine mlu_sq

  subroutine mlu_top(x, f)
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: f
    a = x
    call mlu_sq(a(2))
    f = sum(a*a) + a(2)*a(1)
  end subroutine mlu_top
end module mlu_work
