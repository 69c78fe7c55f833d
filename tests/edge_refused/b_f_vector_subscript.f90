! radtap: -head q1 -vars "x" -outvars "y"
! A read through a vector subscript with a repeated index: the adjoint xb(idx) = xb(idx) + ... kept one contribution (dot product off by 0.7).
subroutine q1(x, y)
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: y(4)
  integer :: idx(4)
  idx = [1, 1, 2, 3]
  y = x(idx)*x(idx)
end subroutine q1
