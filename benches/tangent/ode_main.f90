! Timing driver for ode.f90: primal `ode`, tangent `ode_d` (one direction) and vector tangent
! `ode_dv` (nbdirsmax = 8 directions). Usage: ode_main [min_seconds]
! Machine-readable lines start with "@ " (see stencil_main.f90).
program ode_main
  use diffsizes, only: nbdirsmax
  implicit none
  integer, parameter :: m = 4, ny = 2*m, nsteps = 10000, nd = nbdirsmax
  real(8), parameter :: h = 1.0d-3
  real(8) :: y0(ny), y(ny), yd0(ny), yd(ny), ydv0(nd, ny), ydv(nd, ny)
  real(8) :: yref(ny), yp(ny), ym(ny), fd(ny), eps, err, scale
  real(8) :: checksum, tmin, tp, tt, tv
  integer :: i, k, rp, rt, rv
  character(len=32) :: arg

  tmin = 0.2d0
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) tmin
  end if
  checksum = 0.0d0

  ! Deterministic inputs: angles 0.3..0.6 rad, small angular velocities; 8 directions
  ! (direction 1 = yd0).
  do i = 1, m
    y0(i) = 0.2d0 + 0.1d0*real(i, 8)
    y0(m + i) = 0.05d0*real(i, 8) - 0.1d0
  end do
  do i = 1, ny
    do k = 1, nd
      ydv0(k, i) = 1.0d0/real(i + k, 8) + 0.1d0*sin(real(i*k, 8))
    end do
    yd0(i) = ydv0(1, i)
  end do

  ! ---- Sanity checks -------------------------------------------------------------------
  yref = y0
  call ode(m, nsteps, h, yref)
  y = y0
  yd = yd0
  call ode_d(m, nsteps, h, y, yd)
  write (*, '(a, es23.15)') 'theta_1(T)          = ', yref(1)
  write (*, '(a, es23.15)') 'tangent dir 1, y(1) = ', yd(1)
  write (*, '(a, es12.4)') '@ prim_err', maxval(abs(y - yref))/maxval(abs(yref))
  eps = 1.0d-6
  yp = y0 + eps*yd0
  call ode(m, nsteps, h, yp)
  ym = y0 - eps*yd0
  call ode(m, nsteps, h, ym)
  fd = (yp - ym)/(2.0d0*eps)
  write (*, '(a, es23.15)') 'finite diff, y(1)   = ', fd(1)
  write (*, '(a, es12.4)') '@ fd_err', maxval(abs(fd - yd))/maxval(abs(fd))
  y = y0
  ydv = ydv0
  call ode_dv(m, nsteps, h, y, ydv, nd)
  write (*, '(a, es23.15)') 'vector dir 1, y(1)  = ', ydv(1, 1)
  err = maxval(abs(y - yref))/maxval(abs(yref))
  do k = 1, nd
    y = y0
    yd = ydv0(k, :)
    call ode_d(m, nsteps, h, y, yd)
    scale = max(maxval(abs(yd)), 1.0d-300)
    err = max(err, maxval(abs(ydv(k, :) - yd))/scale)
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
        y = y0
        call ode(m, nsteps, h, y)
        checksum = checksum + y(1)
      case (2)
        y = y0
        yd = yd0
        call ode_d(m, nsteps, h, y, yd)
        checksum = checksum + yd(1)
      case (3)
        y = y0
        ydv = ydv0
        call ode_dv(m, nsteps, h, y, ydv, nd)
        checksum = checksum + sum(ydv(:, 1))
      end select
    end do
    call system_clock(c1)
    run = real(c1 - c0, 8)/real(rate, 8)
  end function run

end program ode_main
