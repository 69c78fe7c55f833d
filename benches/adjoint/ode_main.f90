! Adjoint timing driver for ode.f90 (benches/tangent/ode.f90): primal `ode` and adjoint `ode_b`
! (forward + backward sweep). y is both independent (initial state) and dependent (final
! state): yb is the weight w on the final state on entry and d<w, y(T)>/d y(0) on exit.
! Usage: ode_main [min_seconds]
! Machine-readable lines start with "@ ": primal/adjoint seconds per call (each call timed on
! its own, best of 3 timings), peak/traffic/left (AD stack bytes of one ode_b call; left =
! bytes still on the stack after it), dot_err (<yb, v> vs central finite difference of
! <w, y(T)> in the pseudo-random direction v, 4th order, step 1e-3), reps, checksum.
program ode_main
  implicit none
  integer, parameter :: m = 4, ny = 2*m, nsteps = 10000
  real(8), parameter :: h = 1.0d-3
  integer(8), external :: adstack_peakbytes, adstack_totaltraffic, adstack_currentbytes
  real(8) :: y0(ny), y(ny), yb(ny), v(ny), w(ny)
  real(8) :: eps, fp1, fm1, fp2, fm2, fd, adj
  real(8) :: checksum, tmin, tp, ta
  integer(8) :: peak, traffic, left
  integer :: i, rp, ra
  integer(8) :: seed
  character(len=32) :: arg

  tmin = 0.2d0
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) tmin
  end if
  checksum = 0.0d0

  ! Deterministic inputs (as in the tangent driver): angles 0.3..0.6 rad, small angular
  ! velocities; direction v and weights w pseudo-random in [-1, 1] (minstd, fixed seed).
  do i = 1, m
    y0(i) = 0.2d0 + 0.1d0*real(i, 8)
    y0(m + i) = 0.05d0*real(i, 8) - 0.1d0
  end do
  seed = 20240611_8
  do i = 1, ny
    v(i) = rnd()
  end do
  do i = 1, ny
    w(i) = rnd()
  end do

  ! ---- Adjoint and AD stack of one call ------------------------------------------------------
  y = y0
  yb = w
  call adstack_reset()
  call adstack_resetstatistics()
  call ode_b(m, nsteps, h, y, yb)
  peak = adstack_peakbytes()
  traffic = adstack_totaltraffic()
  left = adstack_currentbytes()
  adj = sum(yb*v)

  ! ---- Dot-product check: <yb, v> = d<w, y(T)>/d y(0) . v, by central differences -----------
  ! (4th-order central difference of step eps: exact to O(eps**4), little roundoff.)
  eps = 1.0d-3
  fp1 = wy_at(eps)
  fm1 = wy_at(-eps)
  fp2 = wy_at(2.0d0*eps)
  fm2 = wy_at(-2.0d0*eps)
  fd = (8.0d0*(fp1 - fm1) - (fp2 - fm2))/(12.0d0*eps)
  write (*, '(a, es23.15)') '<w, y(T)>   = ', wy_at(0.0d0)
  write (*, '(a, es23.15)') 'adjoint . v = ', adj
  write (*, '(a, es23.15)') 'finite diff = ', fd
  write (*, '(a, es12.4)') '@ dot_err', abs(adj - fd)/max(abs(fd), 1.0d-300)
  write (*, '(a, i0)') '@ peak ', peak
  write (*, '(a, i0)') '@ traffic ', traffic
  write (*, '(a, i0)') '@ left ', left

  ! ---- Timings -------------------------------------------------------------------------------
  call bench(1, tp, rp)
  call bench(2, ta, ra)
  write (*, '(a, es12.5)') '@ primal', tp
  write (*, '(a, es12.5)') '@ adjoint', ta
  write (*, '(a, i0, a, i0)') '@ reps ', rp, ',', ra
  write (*, '(a, es23.15)') '@ checksum', checksum

contains

  ! Pseudo-random number in [-1, 1] (minstd generator).
  real(8) function rnd()
    seed = mod(48271_8*seed, 2147483647_8)
    rnd = 2.0d0*real(seed, 8)/2147483647.0d0 - 1.0d0
  end function rnd

  ! <w, y(T)> for the initial state y0 + e*v (original code).
  real(8) function wy_at(e)
    real(8), intent(in) :: e
    y = y0 + e*v
    call ode(m, nsteps, h, y)
    wy_at = sum(w*y)
  end function wy_at

  ! Best of 3 timings of `reps` calls, reps chosen so that one timing takes >= tmin seconds.
  subroutine bench(k, best, reps)
    integer, intent(in) :: k
    real(8), intent(out) :: best
    integer, intent(out) :: reps
    real(8) :: el
    integer :: trial
    reps = 1
    do
      el = run(k, reps)
      if (el >= tmin) exit
      if (el <= 0.0d0) then
        reps = reps*10
      else
        reps = max(2*reps, int(1.2d0*tmin/el*real(reps, 8)) + 1)
      end if
    end do
    best = el
    do trial = 1, 3
      best = min(best, run(k, reps))
    end do
    best = best/real(reps, 8)
  end subroutine bench

  ! Seconds spent inside `reps` calls of variant k (1 primal, 2 adjoint); resetting the inputs
  ! and adjoints between calls is not timed.
  real(8) function run(k, reps)
    integer, intent(in) :: k, reps
    integer(8) :: c0, c1, rate, total
    integer :: r
    total = 0
    call system_clock(c0, rate)
    do r = 1, reps
      y = y0
      if (k == 1) then
        call system_clock(c0)
        call ode(m, nsteps, h, y)
        call system_clock(c1)
        checksum = checksum + y(1)
      else
        yb = w
        call system_clock(c0)
        call ode_b(m, nsteps, h, y, yb)
        call system_clock(c1)
        checksum = checksum + yb(1)
      end if
      total = total + (c1 - c0)
    end do
    run = real(total, 8)/real(rate, 8)
  end function run

end program ode_main
