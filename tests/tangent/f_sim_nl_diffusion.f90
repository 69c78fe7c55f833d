! radtap: -head nl_diffuse -vars "u par" -outvars "u e"
! sizes: n=10 nt=12
! Simulation-style module: the head is a module procedure; it takes a
! type(params) record (k0, bc(2), src), allocates a flux work array, calls a
! pure conductivity function and time-steps nonlinear diffusion k(u) = k0(1+0.2u^2).
module nl_heat
  implicit none
  type params
    real(8) :: k0
    real(8) :: bc(2)
    real(8) :: src
  end type params
  real(8), parameter :: dt = 0.1d0
contains
  pure real(8) function cond(v)
    real(8), intent(in) :: v
    cond = 1.0d0 + 0.2d0*v*v
  end function cond

  subroutine nl_diffuse(n, nt, u, par, e)
    integer, intent(in) :: n, nt
    real(8), intent(inout) :: u(n)
    type(params), intent(in) :: par
    real(8), intent(out) :: e
    real(8), allocatable :: flux(:)
    integer :: it, i
    allocate(flux(n + 1))
    do it = 1, nt
      flux(1) = par%k0*cond(0.5d0*(u(1) + par%bc(1)))*(u(1) - par%bc(1))
      do i = 2, n
        flux(i) = par%k0*cond(0.5d0*(u(i - 1) + u(i)))*(u(i) - u(i - 1))
      end do
      flux(n + 1) = par%k0*cond(0.5d0*(u(n) + par%bc(2)))*(par%bc(2) - u(n))
      u = u + dt*(flux(2:n + 1) - flux(1:n)) + 0.01d0*par%src*sin(u)
    end do
    e = 0.5d0*sum(u**2)
    deallocate(flux)
  end subroutine nl_diffuse
end module nl_heat
