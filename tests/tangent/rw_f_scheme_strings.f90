! radtap: -head advect_options -vars "q0 vel" -outvars "q mass"
! sizes: n=10 nsteps=6
! A transport code configured by strings, as namelist-driven models are: the scheme
! name is lower-cased with IACHAR/ACHAR, then SELECT CASE on it chooses first-order
! upwind, Lax-Wendroff or a Fromm-type average; a `character(len=*)` boundary flag
! ('periodic' or 'inflow') is tested with a string comparison; the scheme is applied
! through a module routine taking `character(len=*)` arguments.
module transport_opts
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  pure function lower(s) result(t)
    character(len=*), intent(in) :: s
    character(len=len(s)) :: t
    integer :: i, c
    t = s
    do i = 1, len(s)
      c = iachar(s(i:i))
      if (c >= iachar('A') .and. c <= iachar('Z')) t(i:i) = achar(c + 32)
    end do
  end function lower

  subroutine transport_step(scheme, bc, n, cfl, qin, q)
    character(len=*), intent(in) :: scheme, bc
    integer, intent(in) :: n
    real(wp), intent(in) :: cfl, qin
    real(wp), intent(inout) :: q(n)
    real(wp) :: qe(0:n + 1), qn(n)
    integer :: i
    qe(1:n) = q
    if (bc == 'periodic') then
      qe(0) = q(n)
      qe(n + 1) = q(1)
    else
      qe(0) = qin
      qe(n + 1) = q(n)
    end if
    select case (lower(trim(scheme)))
    case ('upwind')
      do i = 1, n
        qn(i) = qe(i) - cfl*(qe(i) - qe(i - 1))
      end do
    case ('laxwendroff', 'lw')
      do i = 1, n
        qn(i) = qe(i) - 0.5_wp*cfl*(qe(i + 1) - qe(i - 1)) &
                + 0.5_wp*cfl**2*(qe(i + 1) - 2.0_wp*qe(i) + qe(i - 1))
      end do
    case default
      do i = 1, n
        qn(i) = 0.5_wp*((qe(i) - cfl*(qe(i) - qe(i - 1))) + (qe(i) - 0.5_wp*cfl*(qe(i + 1) &
                - qe(i - 1)) + 0.5_wp*cfl**2*(qe(i + 1) - 2.0_wp*qe(i) + qe(i - 1))))
      end do
    end select
    q = qn
  end subroutine transport_step
end module transport_opts

subroutine advect_options(n, nsteps, q0, vel, q, mass)
  use transport_opts
  implicit none
  integer, intent(in) :: n, nsteps
  real(wp), intent(in) :: q0(n), vel
  real(wp), intent(out) :: q(n), mass
  character(len=16) :: names(3)
  character(len=8) :: bc
  real(wp) :: cfl
  integer :: it
  names(1) = 'Upwind'
  names(2) = 'LaxWendroff'
  names(3) = 'FROMM'
  q = q0
  cfl = 0.4_wp*vel
  do it = 1, nsteps
    if (mod(it, 2) == 0) then
      bc = 'periodic'
    else
      bc = 'inflow'
    end if
    call transport_step(names(mod(it - 1, 3) + 1), bc, n, cfl, 1.0_wp, q)
  end do
  mass = sum(q)/n
end subroutine advect_options
