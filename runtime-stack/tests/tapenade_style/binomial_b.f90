! binomial_b.f90 -- the Fortran twin of binomial_b.c: a hand-written adjoint
! in the style of Tapenade's BINOMIAL-CKP output, calling ADFirstAidKit's
! routines as gfortran emits them (lower case, trailing underscore, arguments
! by address), linked with radtap's runtime by tests/tapenade_compat.rs.

subroutine ts(x, n, nsteps)
  implicit none
  integer :: n, nsteps, i, k
  real(8) :: x(n), t
  do i = 1, nsteps
    t = x(1)
    do k = 1, n-1
      x(k) = x(k)*sin(x(k+1)) + 0.1d0*t
    end do
    if (mod(i, 3) == 0) then
      x(n) = x(n)*cos(t)
    else
      x(n) = x(n) + 0.3d0*t*t
    end if
  end do
end subroutine ts

subroutine step_fwd(x, n, t, i)
  implicit none
  integer :: n, i, k
  real(8) :: x(n), t
  call pushreal8(t)
  t = x(1)
  do k = 1, n-1
    call pushreal8(x(k))
    x(k) = x(k)*sin(x(k+1)) + 0.1d0*t
  end do
  call pushreal8(x(n))
  if (mod(i, 3) == 0) then
    x(n) = x(n)*cos(t)
    call pushcontrol1b(1)
  else
    x(n) = x(n) + 0.3d0*t*t
    call pushcontrol1b(0)
  end if
  call pushinteger4(i)
  i = i + 1
end subroutine step_fwd

subroutine step_bwd(x, xb, n, t, i)
  implicit none
  integer :: n, i, k, branch
  real(8) :: x(n), xb(n), t, tb
  call popinteger4(i)
  call popcontrol1b(branch)
  call popreal8(x(n))
  if (branch == 1) then
    tb = -(sin(t)*x(n)*xb(n))
    xb(n) = cos(t)*xb(n)
  else
    tb = 0.6d0*t*xb(n)
  end if
  do k = n-1, 1, -1
    call popreal8(x(k))
    xb(k+1) = xb(k+1) + cos(x(k+1))*x(k)*xb(k)
    tb = tb + 0.1d0*xb(k)
    xb(k) = sin(x(k+1))*xb(k)
  end do
  call popreal8(t)
  xb(1) = xb(1) + tb
end subroutine step_bwd

subroutine ts_b(x, xb, n, nsteps, len, snaps)
  implicit none
  integer :: n, nsteps, len, snaps, i, k, i0, ad_count, action, step
  real(8) :: x(n), xb(n), t
  logical :: adbinomial_next
  t = 0.d0
  ad_count = 1
  i = 1
  call adbinomial_init(len, snaps, 1)
  do 100 while (adbinomial_next(action, step))
    select case (action)
    case (1)
      ! Push Snapshot:
      call pushreal8array(x, n)
      call pushinteger4(i)
      goto 100
    case (2)
      ! Look Snapshot:
      call adstack_startrepeat()
      call popinteger4(i)
      call popreal8array(x, n)
      call adstack_resetrepeat()
      call adstack_endrepeat()
      goto 100
    case (3)
      ! Pop Snapshot:
      call popinteger4(i)
      call popreal8array(x, n)
      goto 100
    case (4)
      ! Advance:
      if (i <= nsteps) then
        t = x(1)
        do k = 1, n-1
          x(k) = x(k)*sin(x(k+1)) + 0.1d0*t
        end do
        if (mod(i, 3) == 0) then
          x(n) = x(n)*cos(t)
        else
          x(n) = x(n) + 0.3d0*t*t
        end if
        i = i + 1
        goto 100
      else
        call adbinomial_resize()
      end if
    case (5)
      ! First Turn:
      ad_count = 1
      do while (i <= nsteps)
        call step_fwd(x, n, t, i)
        ad_count = ad_count + 1
      end do
    case (6)
      ! Turn:
      call step_fwd(x, n, t, i)
      call step_bwd(x, xb, n, t, i)
      goto 100
    end select
    if (action /= 4) then
      do i0 = 1, ad_count
        if (i0 /= 1) call step_bwd(x, xb, n, t, i)
      end do
    end if
100 continue
end subroutine ts_b

program check
  implicit none
  integer, parameter :: n = 4
  integer :: nsteps_list(4) = (/ 1, 2, 5, 11 /)
  integer :: a, s, d, j, nsteps, len, failures, cases
  real(8) :: x0(n), w(n), x(n), xb(n), xp(n), xm(n), h, fd, err
  integer(8), external :: adstack_currentbytes
  failures = 0
  cases = 0
  do j = 1, n
    x0(j) = 0.5d0 + 0.23d0*j - 0.17d0*mod(j-1, 2)
    w(j) = 1.d0 - 0.3d0*(j-1)
  end do
  do a = 1, 4
    do s = 1, 4
      do d = -1, 4
        nsteps = nsteps_list(a)
        len = nsteps + 1 + d
        if (len < 1) cycle
        x = x0
        xb = w
        call ts_b(x, xb, n, nsteps, len, s)
        cases = cases + 1
        if (adstack_currentbytes() /= 0_8) then
          print '(a,3i4)', 'FAILED: stack not empty, nsteps len snaps', nsteps, len, s
          failures = failures + 1
        end if
        do j = 1, n
          h = 1.d-6
          xp = x0
          xm = x0
          xp(j) = xp(j) + h
          xm(j) = xm(j) - h
          call ts(xp, n, nsteps)
          call ts(xm, n, nsteps)
          fd = (sum(w*xp) - sum(w*xm))/(2*h)
          err = abs(fd - xb(j))/(1.d0 + abs(fd))
          if (.not. (err < 1.d-7)) then
            print '(a,4i4,2es22.12)', 'FAILED: nsteps len snaps j adjoint fd', &
                  nsteps, len, s, j, xb(j), fd
            failures = failures + 1
          end if
        end do
      end do
    end do
  end do
  print '(a,i4,a,i4,a)', 'tapenade-style binomial adjoint (fortran):', cases, ' cases,', &
        failures, ' failures'
  if (failures /= 0) stop 1
end program check
