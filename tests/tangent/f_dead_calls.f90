! radtap: -head dead_calls -vars "x" -outvars "y"
! sizes: n=4
! Statements whose values no derivative needs leave the adjoint's forward sweep with the
! references they make to functions without side effects (`lse` through `amax`, `nrm`: the
! loop summing them goes whole); references to functions with a SAVE counter (`counted`,
! 2*a on its second call in each call of the head), a module variable (`remember` sets
! `last`) or an argument (`bump` doubles w(1)) stay, as later statements read what they change.
module dc_state
  implicit none
  real(8) :: last = 0.0d0, acc = 0.0d0
end module dc_state

module dc_funcs
  use dc_state
  implicit none
contains
  real(8) function amax(n, x)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    integer :: i
    amax = x(1)
    do i = 2, n
      if (amax < x(i)) amax = x(i)
    end do
  end function amax

  real(8) function lse(n, x)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8) :: m, s
    integer :: i
    m = amax(n, x)
    s = 0.0d0
    do i = 1, n
      s = s + exp(x(i) - m)
    end do
    lse = log(s) + m
  end function lse

  real(8) function nrm(n, x)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    nrm = sqrt(sum(x**2))
  end function nrm

  real(8) function counted(a)
    real(8), intent(in) :: a
    integer, save :: k = 0
    k = mod(k, 2) + 1
    counted = a * k
  end function counted

  real(8) function remember(a)
    real(8), intent(in) :: a
    last = a * a
    remember = a
  end function remember

  real(8) function bump(w)
    real(8), intent(inout) :: w(2)
    w(1) = w(1) * 2.0d0
    bump = w(1)
  end function bump

  subroutine dead_calls(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y(2)
    real(8) :: t, u, v, w(2)
    integer :: i
    v = 0.0d0
    do i = 1, 3
      v = v + lse(n, x) + nrm(n, x)
    end do
    u = counted(1.5d0)
    u = remember(0.5d0) + u
    w(1) = 2.0d0
    w(2) = 3.0d0
    u = bump(w) + u
    acc = acc + v + u
    t = counted(0.25d0)
    y(1) = lse(n, x) * x(2) + x(3) * w(1) * t
    y(2) = last * x(1) + nrm(n, x)
  end subroutine dead_calls
end module dc_funcs
