! radtap: -head mdm -vars "x" -outvars "y"
! sizes:
! merge with a decided mask, dim(), modulo/mod on integers in subscripts,
! sign with a real second argument, cshift of an active array (its argument's
! derivative was dropped).
subroutine mdm(x, y)
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y(3)
  integer :: i
  y(1) = merge(x(1)*x(2), x(3), x(1) > 0.0d0) + 0.1d0*sum(cshift(x, 1)*x)
  y(2) = dim(x(1) + 2.0d0, x(2)) * sign(x(3), -1.0d0)
  y(3) = 0.0d0
  do i = 1, 7
    y(3) = y(3) + x(modulo(i, 4) + 1)*x(mod(i*3, 4) + 1)/dble(i/2 + 1)
  end do
end subroutine mdm
