! Adjoint timing driver for stencil.f90 (benches/tangent/stencil.f90): primal `stencil` and
! adjoint `stencil_b` (forward + backward sweep). Usage: stencil_main [min_seconds]
! Machine-readable lines start with "@ ": primal/adjoint seconds per call (each call timed on
! its own, best of 3 timings), peak/traffic/left (AD stack bytes of one stencil_b call; left =
! bytes still on the stack after it), dot_err (adjoint . v vs central finite difference of
! the cost in the pseudo-random direction v, 4th order, step 1e-3), reps, checksum.
program stencil_main
  implicit none
  integer, parameter :: n = 2000, nsteps = 1000
  real(8), parameter :: pi = 3.14159265358979324d0
  integer(8), external :: adstack_peakbytes, adstack_totaltraffic, adstack_currentbytes
  real(8) :: u0(n), u(n), ub(n), v(n)
  real(8) :: cost, costb, eps, fp1, fm1, fp2, fm2, fd, adj, x
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

  ! Deterministic inputs: a smooth initial field; the direction v is pseudo-random in [-1, 1]
  ! (minstd generator, fixed seed).
  seed = 20240611_8
  do i = 1, n
    x = real(i - 1, 8)/real(n - 1, 8)
    u0(i) = sin(pi*x) + 0.3d0*sin(5.0d0*pi*x) + 0.1d0*cos(11.0d0*pi*x)
    seed = mod(48271_8*seed, 2147483647_8)
    v(i) = 2.0d0*real(seed, 8)/2147483647.0d0 - 1.0d0
  end do

  ! ---- Adjoint and AD stack of one call ------------------------------------------------------
  u = u0
  ub = 0.0d0
  costb = 1.0d0
  call adstack_reset()
  call adstack_resetstatistics()
  call stencil_b(n, nsteps, u, ub, cost, costb)
  peak = adstack_peakbytes()
  traffic = adstack_totaltraffic()
  left = adstack_currentbytes()
  adj = sum(ub*v)

  ! ---- Dot-product check: <ub, v> = d cost / d u0 . v, by central differences ---------------
  ! (4th-order central difference of step eps: exact to O(eps**4), little roundoff.)
  eps = 1.0d-3
  fp1 = cost_at(eps)
  fm1 = cost_at(-eps)
  fp2 = cost_at(2.0d0*eps)
  fm2 = cost_at(-2.0d0*eps)
  fd = (8.0d0*(fp1 - fm1) - (fp2 - fm2))/(12.0d0*eps)
  write (*, '(a, es23.15)') 'cost        = ', cost_at(0.0d0)
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

  ! The cost at u0 + e*v (original code).
  real(8) function cost_at(e)
    real(8), intent(in) :: e
    real(8) :: c
    u = u0 + e*v
    call stencil(n, nsteps, u, c)
    cost_at = c
  end function cost_at

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
      u = u0
      if (k == 1) then
        call system_clock(c0)
        call stencil(n, nsteps, u, cost)
        call system_clock(c1)
        checksum = checksum + cost
      else
        ub = 0.0d0
        costb = 1.0d0
        call system_clock(c0)
        call stencil_b(n, nsteps, u, ub, cost, costb)
        call system_clock(c1)
        checksum = checksum + ub(1 + mod(r, n))
      end if
      total = total + (c1 - c0)
    end do
    run = real(total, 8)/real(rate, 8)
  end function run

end program stencil_main
