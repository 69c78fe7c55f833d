! radtap: -head eqv -vars "x" -outvars "y"
! sizes:
! EQUIVALENCE: what is written through one member is read through the other, scalars and
! an array element offset into another array; derivatives must share storage the same way.
subroutine eqv(x, y)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(2)
  real(8) :: a, b, w(4), v(2)
  equivalence (a, b), (w(3), v(1))
  integer :: i
  a = x(1)*x(2)
  do i = 1, 4
    w(i) = x(3)*i + a
  end do
  v(2) = v(2)*sin(b)
  y(1) = b*x(3) + v(1)
  y(2) = w(4)*w(1)
end subroutine eqv
