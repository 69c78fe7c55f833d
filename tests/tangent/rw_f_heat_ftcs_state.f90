! radtap: -head rod_cooling -vars "temp0 hconv" -outvars "temp qloss"
! sizes: n=8 nt=12
! Explicit (FTCS) transient conduction in a cooling rod: the rod state is a derived
! type updated intent(inout) by a time-step routine in a time loop, the material
! constants are module variables with SAVE set once by an init routine, Newton cooling
! at the right end and a fixed temperature at the left, heat loss accumulated.
module rod_params
  use iso_fortran_env, only: wp => real64
  implicit none
  real(wp), save :: alpha = 0.0_wp
  real(wp), save :: tinf = 0.0_wp
  logical, save :: ready = .false.
contains
  subroutine init_params()
    if (.not. ready) then
      alpha = 0.02_wp
      tinf = 0.3_wp
      ready = .true.
    end if
  end subroutine init_params
end module rod_params

module rod_solver
  use rod_params
  implicit none
  type :: rod_state
    real(wp), allocatable :: t(:)
    real(wp) :: time = 0.0_wp
    real(wp) :: lost = 0.0_wp
  end type rod_state
contains
  subroutine step(rod, n, dx, dt, h)
    type(rod_state), intent(inout) :: rod
    integer, intent(in) :: n
    real(wp), intent(in) :: dx, dt, h
    real(wp) :: tnew(n), flux
    integer :: i
    do i = 2, n - 1
      tnew(i) = rod%t(i) + alpha*dt/dx**2*(rod%t(i + 1) - 2.0_wp*rod%t(i) + rod%t(i - 1))
    end do
    tnew(1) = rod%t(1)
    flux = h*(rod%t(n) - tinf)
    tnew(n) = rod%t(n) + 2.0_wp*alpha*dt/dx**2*(rod%t(n - 1) - rod%t(n)) - 2.0_wp*dt/dx*flux
    rod%t = tnew
    rod%lost = rod%lost + dt*flux
    rod%time = rod%time + dt
  end subroutine step
end module rod_solver

subroutine rod_cooling(n, nt, temp0, hconv, temp, qloss)
  use rod_solver
  implicit none
  integer, intent(in) :: n, nt
  real(wp), intent(in) :: temp0(n), hconv
  real(wp), intent(out) :: temp(n), qloss
  type(rod_state) :: rod
  real(wp) :: dx, dt
  integer :: it
  call init_params()
  dx = 1.0_wp/(n - 1)
  dt = 0.2_wp*dx**2/alpha
  allocate(rod%t(n))
  rod%t = temp0
  do it = 1, nt
    call step(rod, n, dx, dt, 0.05_wp*hconv)
  end do
  temp = rod%t
  qloss = 10.0_wp*rod%lost + 1.0_wp
  deallocate(rod%t)
end subroutine rod_cooling
