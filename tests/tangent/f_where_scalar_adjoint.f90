! radtap: -head wsa_run -vars "x c" -outvars "y"
! sizes:
! WHERE assignments reading active scalars: relaxing the masked elements towards the
! mean (`where (m == 0) f = f + r*(fm - f)`, fm itself computed from f) and a masked
! scaling by an active factor. The adjoint of a scalar read under a mask is a SUM of the
! masked elements only (`fmb = fmb + sum(r*fb, mask=m)`); the adjoint refused it before
! ("an adjoint inside WHERE that reduces an array into a scalar").
module wsa_mod
  implicit none
contains
  subroutine relax(f, msk, r)
    real(8), intent(inout) :: f(:)
    integer, intent(in) :: msk(:)
    real(8), intent(in) :: r
    real(8) :: fm
    fm = sum(f)/size(f)
    where (msk == 0) f = f + r*(fm - f)*f
  end subroutine relax
end module wsa_mod

subroutine wsa_run(x, c, y)
  use wsa_mod
  implicit none
  real(8), intent(in) :: x(6), c
  real(8), intent(out) :: y
  real(8) :: f(6), g(6)
  integer :: msk(6), i
  do i = 1, 6
    msk(i) = mod(i, 3)
  end do
  f = x*x
  call relax(f, msk, 0.3d0*c)
  g = 2.0d0*x
  where (msk /= 1)
    g = c*g + f
  end where
  y = sum(f*g) + f(1)*c
end subroutine wsa_run
