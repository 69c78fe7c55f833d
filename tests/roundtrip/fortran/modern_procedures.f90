! Modern procedure arguments: abstract interfaces that IMPORT a kind, procedure(iface)
! dummies (one OPTIONAL), DO CONCURRENT with one and two controls and a mask.
module quad_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  abstract interface
    pure function fun1(x) result(y)
      import :: dp
      real(dp), intent(in) :: x
      real(dp) :: y
    end function fun1
    subroutine report(msg, v)
      import
      character(len=*), intent(in) :: msg
      real(dp), intent(in) :: v
    end subroutine report
  end interface
contains
  function midpoint(f, a, b, n, say) result(s)
    procedure(fun1) :: f
    procedure(report), optional :: say
    real(dp), intent(in) :: a, b
    integer, intent(in) :: n
    real(dp) :: s, h, v(n)
    integer :: i
    h = (b - a)/n
    do concurrent (i = 1:n)
      v(i) = f(a + (i - 0.5_dp)*h)
    end do
    s = h*sum(v)
    if (present(say)) call say('midpoint', s)
  end function midpoint
  pure function sq(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = x*x
  end function sq
  subroutine show(msg, v)
    character(len=*), intent(in) :: msg
    real(dp), intent(in) :: v
    write(*, '(a,1x,f12.8)') msg, v
  end subroutine show
end module quad_mod

program modern_procedures
  use quad_mod
  implicit none
  real(dp) :: a(4, 3), r
  integer :: i, j
  r = midpoint(sq, 0.0_dp, 1.0_dp, 50, show)
  write(*, '(f12.8)') midpoint(sq, 0.0_dp, 2.0_dp, 10)
  a = 0.0_dp
  do concurrent (i = 1:4, j = 1:3, mod(i + j, 2) == 0)
    a(i, j) = real(10*i + j, dp)
  end do
  write(*, '(4f6.1)') a
end program modern_procedures
