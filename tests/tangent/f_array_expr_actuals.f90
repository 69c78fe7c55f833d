! radtap: -head relax_stages -vars "u c" -outvars "r e"
! sizes: n=5
! Array expressions and array constructors as actual arguments and values: an expression
! for an assumed-shape dummy in a logical IF, for an explicit-shape dummy by keyword, in a
! function reference inside an expression, for a zero-based array, for an assumed-shape
! dummy inside a procedure whose own dummy is assumed-shape (`size(v, 1)` temporary);
! constructors of active scalars and arrays (with an inactive array item `p` of a dynamic
! total size) into a whole array and a section, under `sum` and `dot_product`.
module stage_ops
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine smooth(v, w)
    real(dp), intent(in) :: v(:)
    real(dp), intent(out) :: w(:)
    integer :: i, m
    m = size(v)
    w(1) = v(1)
    do i = 2, m
      w(i) = 0.5_dp*(v(i) + v(i - 1)*v(i))
    end do
  end subroutine smooth

  subroutine smooth_scaled(v, w)
    real(dp), intent(in) :: v(:)
    real(dp), intent(out) :: w(:)
    call smooth(1.5_dp*v + 0.1_dp, w)
  end subroutine smooth_scaled

  subroutine scale_add(n, a, x, y)
    integer, intent(in) :: n
    real(dp), intent(in) :: a, x(n)
    real(dp), intent(inout) :: y(n)
    y = y + a*sin(x)
  end subroutine scale_add

  real(dp) function energy(n, v)
    integer, intent(in) :: n
    real(dp), intent(in) :: v(n)
    energy = 0.5_dp*sum(v*v)
  end function energy
end module stage_ops

subroutine relax_stages(n, u, c, r, e)
  use stage_ops
  implicit none
  integer, intent(in) :: n
  real(dp), intent(in) :: u(n), c(2)
  real(dp), intent(out) :: r(n + 4), e(3)
  real(dp) :: w(n), z(0:n - 1), g(n + 2), a, b, p(2)
  integer :: k
  p = [0.7_dp, 1.3_dp]
  a = 0.3_dp*u(1)
  b = exp(-0.2_dp*u(n))
  z = u
  do k = 1, 2
    if (k == 2) call smooth(2.0_dp*u - 0.1_dp*w, w)
    if (k == 1) call smooth(u*u, w)
    call scale_add(n, y=z, x=0.5_dp*(z + w), a=a)
  end do
  e(1) = energy(n, z - 0.5_dp*u) + b*energy(n, sqrt(w))
  g = [a*b, w, c(1)]
  g = g + [p, u]
  call smooth_scaled(g - 0.5_dp, g)
  r(1:n + 2) = g
  r(n + 3:n + 4) = (/ b, sum(z) /)
  r(2:n + 1) = r(2:n + 1) + 0.1_dp*[z(1:n - 1), a]
  e(2) = sum([p, z(0)]*u(1:3))
  e(3) = dot_product(c, [p(2), a]) + sum(2.0_dp*[p, c])
end subroutine relax_stages
