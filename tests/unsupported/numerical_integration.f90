! Numerical integration with procedures passed as arguments through
! an abstract interface, comparing trapezoid, Simpson and Gauss rules.
module integrate_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: pi = 3.141592653589793_dp

  abstract interface
    function integrand(x) result(y)
      import :: dp
      real(dp), intent(in) :: x
      real(dp) :: y
    end function integrand
  end interface
contains
  function trapezoid(f, a, b, n) result(s)
    procedure(integrand) :: f
    real(dp), intent(in) :: a, b
    integer, intent(in) :: n
    real(dp) :: s, h
    integer :: i
    h = (b - a) / n
    s = 0.5_dp * (f(a) + f(b))
    do i = 1, n - 1
      s = s + f(a + i * h)
    end do
    s = s * h
  end function trapezoid

  function simpson(f, a, b, n) result(s)
    procedure(integrand) :: f
    real(dp), intent(in) :: a, b
    integer, intent(in) :: n
    real(dp) :: s, h
    integer :: i
    h = (b - a) / n
    s = f(a) + f(b)
    do i = 1, n - 1
      if (mod(i, 2) == 1) then
        s = s + 4.0_dp * f(a + i * h)
      else
        s = s + 2.0_dp * f(a + i * h)
      end if
    end do
    s = s * h / 3.0_dp
  end function simpson

  function gauss3(f, a, b) result(s)
    procedure(integrand) :: f
    real(dp), intent(in) :: a, b
    real(dp) :: s, c, m
    real(dp), parameter :: nodes(3) = [-sqrt(0.6_dp), 0.0_dp, sqrt(0.6_dp)]
    real(dp), parameter :: weights(3) = [5.0_dp, 8.0_dp, 5.0_dp] / 9.0_dp
    c = 0.5_dp * (b - a)
    m = 0.5_dp * (b + a)
    s = c * sum(weights * [f(m + c * nodes(1)), f(m + c * nodes(2)), &
                           f(m + c * nodes(3))])
  end function gauss3

  function f_sin(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = sin(x)
  end function f_sin

  function f_poly(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = x**4 - 2.0_dp * x + 1.0_dp
  end function f_poly

  function f_gauss(x) result(y)
    real(dp), intent(in) :: x
    real(dp) :: y
    y = exp(-x * x)
  end function f_gauss
end module integrate_mod

program numerical_integration
  use integrate_mod
  implicit none
  procedure(integrand), pointer :: fp => null()
  integer :: n

  write(*,'(A)') '  n    trapezoid(sin)    simpson(sin)'
  do n = 4, 32, 14
    write(*,'(I3,2F18.12)') n, trapezoid(f_sin, 0.0_dp, pi, n), &
      simpson(f_sin, 0.0_dp, pi, n)
  end do
  write(*,'(A,F18.12)') 'gauss3 poly on [0,2]:', gauss3(f_poly, 0.0_dp, 2.0_dp)
  write(*,'(A,F18.12)') 'exact  poly on [0,2]:', 32.0_dp / 5.0_dp - 4.0_dp + 2.0_dp
  fp => f_gauss
  write(*,'(A,F14.10)') 'simpson exp(-x^2) on [0,3]:', simpson(fp, 0.0_dp, 3.0_dp, 60)
  write(*,'(A,F14.10)') 'sqrt(pi)/2 * erf(3)       :', sqrt(pi) / 2.0_dp * erf(3.0_dp)
  write(*,'(A,L2)') 'pointer associated:', associated(fp)
end program numerical_integration
