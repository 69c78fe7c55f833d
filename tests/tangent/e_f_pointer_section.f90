! radtap: -head psec -vars "x" -outvars "y"
! sizes:
! A POINTER to a section of a TARGET local array, written through the pointer,
! then re-pointed to another section.
subroutine psec(x, y)
  real(8), intent(in) :: x(6)
  real(8), intent(out) :: y
  real(8), target :: a(6)
  real(8), pointer :: p(:)
  a = x
  p => a(2:4)
  p = p*p + 0.5d0
  p => a(4:6)
  p(1) = p(1)*x(1)
  y = sum(a) + a(4)*a(2)
end subroutine psec
