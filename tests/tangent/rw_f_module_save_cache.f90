! radtap: -head viscous_loss -vars "temp vel" -outvars "loss"
! sizes: n=7
! A property module that caches as real codes do: Sutherland coefficients computed on
! the first call into module variables with SAVE (guarded by a LOGICAL flag), a call
! counter, and a module array holding the last viscosity profile that a second routine
! reads back to form the dissipation.
module viscosity_cache
  use iso_fortran_env, only: wp => real64
  implicit none
  logical, save :: initialised = .false.
  integer, save :: ncalls = 0
  real(wp), save :: mu_ref, t_ref, s_const
  real(wp), save :: mu_last(100)
contains
  subroutine setup()
    if (initialised) return
    mu_ref = 1.716_wp
    t_ref = 0.9_wp
    s_const = 0.4_wp
    initialised = .true.
  end subroutine setup

  subroutine viscosity_profile(n, t)
    integer, intent(in) :: n
    real(wp), intent(in) :: t(n)
    integer :: i
    call setup()
    ncalls = ncalls + 1
    do i = 1, n
      mu_last(i) = mu_ref*(t(i)/t_ref)**1.5_wp*(t_ref + s_const)/(t(i) + s_const)
    end do
  end subroutine viscosity_profile

  function dissipation(n, u, dy) result(phi)
    integer, intent(in) :: n
    real(wp), intent(in) :: u(n), dy
    real(wp) :: phi
    integer :: i
    phi = 0.0_wp
    do i = 1, n - 1
      phi = phi + 0.5_wp*(mu_last(i) + mu_last(i + 1))*((u(i + 1) - u(i))/dy)**2*dy
    end do
  end function dissipation
end module viscosity_cache

subroutine viscous_loss(n, temp, vel, loss)
  use viscosity_cache
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: temp(n), vel(n)
  real(wp), intent(out) :: loss
  real(wp) :: dy, u(n), twarm(n)
  integer :: i
  dy = 1.0_wp/(n - 1)
  do i = 1, n
    u(i) = vel(i)*(1.0_wp + real(i, wp)*dy)
  end do
  call viscosity_profile(n, temp)
  loss = dissipation(n, u, dy)
  twarm = 1.1_wp*temp
  call viscosity_profile(n, twarm)
  loss = loss + 0.5_wp*dissipation(n, u, dy)
end subroutine viscous_loss
