! Timing driver for rdiff.f90: primal `rdiff`, tangent `rdiff_d` (one direction) and
! vector tangent `rdiff_dv` (nbdirsmax = 8 directions). Usage: rdiff_main [min_seconds]
! Machine-readable lines start with "@ ": primal/tangent/vector seconds per call (best of 3),
! fd_err (tangent vs central finite difference), vec_err (vector directions vs tangent),
! prim_err (primal result of rdiff_d vs rdiff).
program rdiff_main
  use diffsizes, only: nbdirsmax
  implicit none
  integer, parameter :: n = 2000, nsteps = 200, nd = nbdirsmax
  real(8), parameter :: pi = 3.14159265358979324d0
  real(8) :: u0(n), u(n), ud0(n), ud(n), udv0(nd, n), udv(nd, n)
  real(8) :: cost, costd, costdv(nd), cost0, cp, cm, eps, fd, err, dref, x
  real(8) :: checksum, tmin, tp, tt, tv
  integer :: i, k, rp, rt, rv
  character(len=32) :: arg

  tmin = 0.2d0
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) tmin
  end if
  checksum = 0.0d0

  ! Deterministic inputs: a smooth initial field and 8 smooth directions (direction 1 = ud0).
  do i = 1, n
    x = real(i - 1, 8)/real(n - 1, 8)
    u0(i) = sin(pi*x) + 0.3d0*sin(5.0d0*pi*x) + 0.1d0*cos(11.0d0*pi*x)
    do k = 1, nd
      udv0(k, i) = cos(real(k, 8)*pi*x) + 0.01d0*real(k, 8)
    end do
    ud0(i) = udv0(1, i)
  end do

  ! ---- Sanity checks -------------------------------------------------------------------
  u = u0
  call rdiff(n, nsteps, u, cost0)
  u = u0
  ud = ud0
  call rdiff_d(n, nsteps, u, ud, cost, costd)
  write (*, '(a, es23.15)') 'cost          = ', cost0
  write (*, '(a, es23.15)') 'tangent dir 1 = ', costd
  write (*, '(a, es12.4)') '@ prim_err', abs(cost - cost0)/abs(cost0)
  eps = 1.0d-6
  u = u0 + eps*ud0
  call rdiff(n, nsteps, u, cp)
  u = u0 - eps*ud0
  call rdiff(n, nsteps, u, cm)
  fd = (cp - cm)/(2.0d0*eps)
  write (*, '(a, es23.15)') 'finite diff   = ', fd
  write (*, '(a, es12.4)') '@ fd_err', abs(fd - costd)/max(abs(fd), 1.0d-300)
  u = u0
  udv = udv0
  call rdiff_dv(n, nsteps, u, udv, cost, costdv, nd)
  write (*, '(a, es23.15)') 'vector dir 1  = ', costdv(1)
  err = abs(cost - cost0)/abs(cost0)
  do k = 1, nd
    u = u0
    ud = udv0(k, :)
    call rdiff_d(n, nsteps, u, ud, cost, dref)
    err = max(err, abs(costdv(k) - dref)/max(abs(dref), 1.0d-300))
  end do
  write (*, '(a, es12.4)') '@ vec_err', err

  ! ---- Timings -------------------------------------------------------------------------
  call bench(1, tp, rp)
  call bench(2, tt, rt)
  call bench(3, tv, rv)
  write (*, '(a, es12.5)') '@ primal', tp
  write (*, '(a, es12.5)') '@ tangent', tt
  write (*, '(a, es12.5)') '@ vector', tv
  write (*, '(a, i0, a, i0, a, i0)') '@ reps ', rp, ',', rt, ',', rv
  write (*, '(a, es23.15)') '@ checksum', checksum

contains

  ! Best of 3 timings of `reps` calls, reps chosen so that one timing takes >= tmin seconds.
  subroutine bench(v, best, reps)
    integer, intent(in) :: v
    real(8), intent(out) :: best
    integer, intent(out) :: reps
    real(8) :: el
    integer :: trial
    reps = 1
    do
      el = run(v, reps)
      if (el >= tmin) exit
      if (el <= 0.0d0) then
        reps = reps*10
      else
        reps = max(2*reps, int(1.2d0*tmin/el*real(reps, 8)) + 1)
      end if
    end do
    best = el
    do trial = 1, 3
      best = min(best, run(v, reps))
    end do
    best = best/real(reps, 8)
  end subroutine bench

  real(8) function run(v, reps)
    integer, intent(in) :: v, reps
    integer(8) :: c0, c1, rate
    integer :: r
    call system_clock(c0, rate)
    do r = 1, reps
      select case (v)
      case (1)
        u = u0
        call rdiff(n, nsteps, u, cost)
        checksum = checksum + cost
      case (2)
        u = u0
        ud = ud0
        call rdiff_d(n, nsteps, u, ud, cost, costd)
        checksum = checksum + costd
      case (3)
        u = u0
        udv = udv0
        call rdiff_dv(n, nsteps, u, udv, cost, costdv, nd)
        checksum = checksum + sum(costdv)
      end select
    end do
    call system_clock(c1)
    run = real(c1 - c0, 8)/real(rate, 8)
  end function run

end program rdiff_main
