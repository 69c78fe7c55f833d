! radtap: -head "edges(s)/(a)"
! sizes: n=4
! Elements picked by bound inquiries, `a(ubound(a,1), j)` and `a(lbound(a,1), j)`: with DIM
! they are scalars, but the adjoint took them for vector subscripts ("a read through a
! vector subscript") and refused.
subroutine edges(n, a, s)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, 3)
  real(8), intent(out) :: s
  integer :: j
  s = 0.0d0
  do j = 1, 3
    s = s + a(ubound(a,1), j)**2 + a(lbound(a,1), j)*a(2, j)
  end do
end subroutine edges
