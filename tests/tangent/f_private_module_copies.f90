! radtap: -head plate_energy -vars "x k" -outvars "e"
! sizes: n=6
! PRIVATE module entities reached from differentiated procedures: a private kind
! constant used in literal suffixes (`2.0_dp`), a private constant initialised from
! another (`c2 = 2*c1`), a private bound of a local array, and private procedures
! without derivatives (an integer index helper, a weight of integers only) called from
! the differentiated ones: the derivative module gets PRIVATE copies of them.
module plate_lib
  implicit none
  private
  public :: plate_sum
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: c1 = 0.25_dp
  real(dp), parameter :: c2 = 2.0_dp*c1
  integer, parameter :: nbuf = 3
contains
  pure integer function wrap(i, n)
    integer, intent(in) :: i, n
    wrap = modulo(i - 1, n) + 1
  end function wrap

  pure function weight(i) result(w)
    integer, intent(in) :: i
    real(dp) :: w
    w = 1.0_dp + c1*real(wrap(i, nbuf), dp)
  end function weight

  pure function bend(a, b, k) result(r)
    real(dp), intent(in) :: a, b, k
    real(dp) :: r
    r = k*(a - b)**2 + c2*a*b
  end function bend

  subroutine plate_sum(n, x, k, e)
    integer, intent(in) :: n
    real(dp), intent(in) :: x(n), k
    real(dp), intent(out) :: e
    real(dp) :: buf(nbuf)
    integer :: i
    buf = 0.0_dp
    e = 0.0_dp
    do i = 1, n
      buf(wrap(i, nbuf)) = buf(wrap(i, nbuf)) + x(i)
      e = e + weight(i)*bend(x(i), x(wrap(i + 1, n)), k)
    end do
    e = e + c1*sum(buf**2)
  end subroutine plate_sum
end module plate_lib

subroutine plate_energy(n, x, k, e)
  use plate_lib
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: x(n), k
  double precision, intent(out) :: e
  call plate_sum(n, x, k, e)
end subroutine plate_energy
