! radtap: -head "step(y)/(x)"
! sizes:
! A module where a procedure the head never calls passes one of its internal procedures,
! which uses its variables, to a solver (the Fortran Astrodynamics Toolkit's
! `kepler_classical` hands `kepde_` to `newton`): that cannot be lifted, and the refusal
! stopped every head of the module, `propagate` of another file included. It is reported
! only for the procedures a head reaches; the others are left as written.
module unreached_lift
  implicit none
contains
  subroutine step(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y(2)
    y(1) = x(1)*cos(x(2))
    y(2) = x(1)*sin(x(2)) + x(2)**2
  end subroutine step

  subroutine solve_kepler(m, e, ea)
    real(8), intent(in) :: m, e
    real(8), intent(out) :: ea
    call newton(kep, 0.0d0, ea)
  contains
    subroutine kep(t, f)
      real(8), intent(in) :: t
      real(8), intent(out) :: f
      f = t - e*sin(t) - m
    end subroutine kep
  end subroutine solve_kepler

  subroutine newton(fun, x0, x)
    interface
      subroutine fun(t, f)
        real(8), intent(in) :: t
        real(8), intent(out) :: f
      end subroutine fun
    end interface
    real(8), intent(in) :: x0
    real(8), intent(out) :: x
    real(8) :: f0, f1
    integer :: k
    x = x0
    do k = 1, 20
      call fun(x, f0)
      call fun(x + 1.0d-7, f1)
      x = x - f0*1.0d-7/(f1 - f0)
    end do
  end subroutine newton
end module unreached_lift
