! radtap: -head "adapt(res)/(k b)"
! sizes:
! QUADPACK's `main: block … if (done) exit main … end block main` around an adaptive
! bisection (dqagse's shape): an EXIT of the block before its loop and one from inside the
! loop, an unnamed EXIT of the loop inside the block, then a BLOCK with declarations, one
! shadowing a local of the procedure, inside a loop. The adjoint opens the blocks (locals
! moved, renamed where taken; `exit main` a jump past the block) (fixed: refused, "a BLOCK
! construct with declarations" even without any; issue 44 item 5).
module adapt_blocks
  implicit none
  integer, parameter :: wp = kind(1.0d0)
contains
  subroutine rule(k, a, b, area, err)
    real(wp), intent(in) :: k, a, b
    real(wp), intent(out) :: area, err
    real(wp) :: h, c
    h = 0.5_wp*(b - a)
    c = a + h
    area = h*(g(k, a) + 4.0_wp*g(k, c) + g(k, b))/3.0_wp
    err = abs(h)**3*0.01_wp*(1.0_wp + a)
  end subroutine rule

  real(wp) function g(k, x)
    real(wp), intent(in) :: k, x
    g = exp(-k*x)*cos(2.0_wp*x)
  end function g

  subroutine adapt(k, b, res)
    real(wp), intent(in) :: k, b
    real(wp), intent(out) :: res
    integer, parameter :: limit = 12
    real(wp) :: alist(limit), blist(limit), rlist(limit), elist(limit)
    real(wp) :: a1, b1, a2, b2, area1, area2, e1, e2, errsum, t
    integer :: last, maxerr, i
    alist(1) = 0.0_wp
    blist(1) = b
    call rule(k, alist(1), blist(1), rlist(1), elist(1))
    last = 1
    t = 0.5_wp
    main: block
      if (elist(1) < 1.0e-14_wp) exit main
      do last = 2, limit
        maxerr = 1
        do i = 2, last - 1
          if (elist(i) > elist(maxerr)) maxerr = i
        end do
        a1 = alist(maxerr)
        b2 = blist(maxerr)
        b1 = 0.5_wp*(a1 + b2)
        a2 = b1
        call rule(k, a1, b1, area1, e1)
        call rule(k, a2, b2, area2, e2)
        alist(maxerr) = a1
        blist(maxerr) = b1
        rlist(maxerr) = area1
        elist(maxerr) = e1
        alist(last) = a2
        blist(last) = b2
        rlist(last) = area2
        elist(last) = e2
        errsum = sum(elist(1:last))
        if (errsum < 1.0e-12_wp) exit main
        if (last == limit - 2) exit
      end do
      last = min(last, limit)
    end block main
    res = 0.0_wp
    do i = 1, last
      block
        real(wp) :: t, w
        t = rlist(i)
        w = 1.0_wp + 0.01_wp*i
        res = res + w*t
      end block
    end do
    res = res + t*k
  end subroutine adapt
end module adapt_blocks
