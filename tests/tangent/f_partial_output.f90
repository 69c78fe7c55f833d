! radtap: -head partial_out -vars "x" -outvars "y"
! sizes: n=5
! A dependent array written only at odd indices (a strided loop) and not an independent:
! its even elements keep the caller's values, whose derivative is zero, not whatever the
! caller passed in yd (the tangent left yd(2), yd(4) as passed).
subroutine partial_out(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  do i = 1, n, 2
    y(i) = x(i)**2 + sin(x(n-i+1))
  end do
end subroutine partial_out
