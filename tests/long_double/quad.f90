! Ours (issue 44 item 8): real(16) through a function result, a recurrence the adjoint
! records and quotients.
module q_m
  implicit none
  integer, parameter :: qp = 16
contains
  real(qp) function g(x)
    real(qp), intent(in) :: x
    g = x*x + 1.0_qp
  end function g
  subroutine f(n, a, y)
    integer, intent(in) :: n
    real(qp), intent(in) :: a(n)
    real(qp), intent(out) :: y
    real(qp) :: c, s
    integer :: i
    c = 1.0_qp
    s = 0.0_qp
    do i = 1, n
      c = c*a(i)
      s = s + g(a(i))/c
    end do
    y = c*s + a(1)/(a(2)*a(2))
  end subroutine f
end module q_m
