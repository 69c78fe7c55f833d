! radtap: -head broadcasts -vars "x y a" -outvars "s r"
! sizes: n=3
! SUM of array expressions whose adjoint seed is a scalar broadcast (hunt 13): a scalar
! operand `sum(x + y)` (`yb = yb + sb` for `n*sb`), `sum(max(x, y))` (a rank-1 MERGE added to a
! scalar: no compile), `sum(sum(a, dim=2))` (the seed spread once: no compile), a truncating
! `sum(reshape(w, [n]))` of a `2n` array (every element got the seed) and `r = 2*reshape(w, [n])`
! (the adjoint read past the end of `rb`: a crash), and sections of one array with their
! ranges in swapped places, `sum(a(2:n, :)) + sum(a(:, 2:n))` (merged into one update on
! `a(2:n, :)`: silently wrong). The seed is spread to the summed expression's shape, RESHAPE's
! adjoint pads, and the sections stay apart.
subroutine broadcasts(n, x, y, a, s, r)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y, a(n, n)
  real(8), intent(out) :: s(5), r(n)
  real(8) :: w(2 * n)
  integer :: i
  do i = 1, 2 * n
    w(i) = x(1 + mod(i, n)) * (1.0d0 + 0.1d0 * i)
  end do
  s(1) = sum(x + y) + sum(x(2:n) + y * 0.5d0)
  s(2) = sum(max(x, y + 2.0d0)) * 0.5d0
  s(3) = sum(sum(a * y, dim=2)) + sum(2.0d0 * sum(a, dim=1))
  s(4) = sum(reshape(w, (/ n /))) * y
  s(5) = sum(a(2:n, :)) + 2.0d0 * sum(a(:, 2:n))
  r = 2.0d0 * reshape(w, (/ n /)) + y
end subroutine broadcasts
