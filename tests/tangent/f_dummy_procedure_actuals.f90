! radtap: -head moments -vars "c y" -outvars "r"
! sizes: n=4
! Dummy procedures receiving several procedures (issue 19): each procedure with a called
! dummy procedure is differentiated once per actual procedure (specialised, as Tapenade
! does). A function dummy referenced in an expression receives three functions: one of
! the library's own module, two of a module after it (the copies go there and use the
! library), one passed by keyword twice; a subroutine dummy receives two subroutines of a
! module before the library's, which the library does not use.
module rates
  implicit none
contains
  subroutine decay(y, c, dy)
    real(8), intent(in) :: y(2), c
    real(8), intent(out) :: dy(2)
    dy(1) = -c*y(1)
    dy(2) = c*y(1) - 0.5d0*y(2)
  end subroutine decay

  subroutine growth(y, c, dy)
    real(8), intent(in) :: y(2), c
    real(8), intent(out) :: dy(2)
    dy(1) = c*y(1)*(1.0d0 - 0.1d0*y(1))
    dy(2) = -0.2d0*y(2) + 0.1d0*c*y(1)
  end subroutine growth
end module rates

module quad
  implicit none
  abstract interface
    function fun(x, c) result(v)
      real(8), intent(in) :: x, c
      real(8) :: v
    end function fun
    subroutine deriv(y, c, dy)
      real(8), intent(in) :: y(2), c
      real(8), intent(out) :: dy(2)
    end subroutine deriv
  end interface
contains
  function simpson(f, a, b, n, c) result(s)
    procedure(fun) :: f
    real(8), intent(in) :: a, b, c
    integer, intent(in) :: n
    real(8) :: s, h
    integer :: i
    h = (b - a)/n
    s = f(a, c) + f(b, c)
    do i = 1, n - 1
      s = s + (3.0d0 + (-1.0d0)**(i + 1))*f(a + i*h, c)
    end do
    s = s*h/3.0d0
  end function simpson

  function poly(x, c) result(v)
    real(8), intent(in) :: x, c
    real(8) :: v
    v = c*x**2 + 1.0d0
  end function poly

  subroutine euler(g, y, c, h, nstep)
    procedure(deriv) :: g
    real(8), intent(inout) :: y(2)
    real(8), intent(in) :: c, h
    integer, intent(in) :: nstep
    real(8) :: dy(2)
    integer :: i
    do i = 1, nstep
      call g(y, c, dy)
      y = y + h*dy
    end do
  end subroutine euler

  subroutine halves(g, y, c, nstep)
    procedure(deriv) :: g
    real(8), intent(inout) :: y(2)
    real(8), intent(in) :: c
    integer, intent(in) :: nstep
    call euler(g, y, c, 0.05d0, 2*nstep)
  end subroutine halves
end module quad

module kernels
  implicit none
contains
  function gauss(x, c) result(v)
    real(8), intent(in) :: x, c
    real(8) :: v
    v = exp(-c*x**2)
  end function gauss

  function ratio(x, c) result(v)
    real(8), intent(in) :: x, c
    real(8) :: v
    v = x/(c + x)
  end function ratio
end module kernels

subroutine moments(n, c, y, r)
  use quad, only: simpson, poly, euler, halves
  use kernels, only: gauss, ratio
  use rates, only: decay, growth
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: c, y(2)
  real(8), intent(out) :: r(7)
  real(8) :: ya(2), yv(2)
  r(1) = simpson(poly, 0.0d0, 1.0d0, 2*n, c)
  r(2) = simpson(gauss, 0.0d0, 1.0d0, 2*n, c) + simpson(ratio, 0.5d0, 1.5d0, 2*n, c)
  r(3) = simpson(ratio, 0.0d0, 1.0d0, 2*n, 2.0d0*c)
  ya = y
  yv = y
  call euler(decay, ya, c, 0.1d0, n)
  call euler(g=growth, y=yv, c=c, h=0.1d0, nstep=n)
  r(4) = ya(1) + 2.0d0*ya(2)
  r(5) = yv(1)*yv(2)
  ya = y
  yv = y
  call halves(growth, ya, c, n)
  call halves(decay, yv, c, n)
  r(6) = ya(1) + ya(2)
  r(7) = yv(2)
end subroutine moments
