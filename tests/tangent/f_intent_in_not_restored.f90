! radtap: -head "convert_head(y)/(x)"
! sizes:
! OpenAD's argumentConversionSaveIndex shape: elements of an INTENT(IN) dummy (at a constant
! and at a saved index the callee advances) passed to routines without INTENT that may
! write their first argument on a path the run does not take. A valid program never changes
! an INTENT(IN) dummy, so the adjoint records nothing of it around the checkpointed calls
! (fixed: the restore `x(1) = x_save` did not compile, and `x` was pushed whole for `x(k)`;
! issue 44 item 15).
subroutine bump(a, b, k)
  double precision a, b
  integer k
  if (k > 50) a = 0.0d0
  b = b + a*a
  k = k + 1
end subroutine bump

subroutine convert_head(x, y)
  double precision, intent(in) :: x(3)
  double precision, intent(out) :: y
  integer :: k
  k = 1
  y = 0.5d0
  call bump(x(1), y, k)
  call bump(x(k), y, k)
  call bump(x(k), y, k)
  y = y*x(1) + sin(x(3))
end subroutine convert_head
