! radtap: -head ctg_top -vars "x" -outvars "y"
! sizes: n=5
! CONTIGUOUS assumed-shape dummy receiving a whole array and a section.
module ctg_m
  implicit none
contains
  function ssq(v) result(r)
    real(8), contiguous, intent(in) :: v(:)
    real(8) :: r
    integer :: i
    r = 0.0d0
    do i = 1, size(v)
      r = r + v(i)*v(i)
    end do
  end function ssq

  subroutine ctg_top(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    y = ssq(x) + ssq(x(2:n-1))*x(1)
  end subroutine ctg_top
end module ctg_m
