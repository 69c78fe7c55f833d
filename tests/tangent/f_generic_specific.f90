! radtap: -head gen_head -vars "x v" -outvars "y w"
! sizes:
module generic_specific
  implicit none
  interface sq
    module procedure sq_r, sq_i
  end interface
  interface twice
    module procedure twice_i, twice_r
  end interface
  interface nrm
    module procedure nrm_s, nrm_v
  end interface
contains
  real(8) function sq_r(x)
    real(8), intent(in) :: x
    sq_r = x*x
  end function sq_r
  integer function sq_i(i)
    integer, intent(in) :: i
    sq_i = i*i
  end function sq_i
  subroutine twice_i(a, b)
    integer, intent(in) :: a
    integer, intent(out) :: b
    b = 2*a
  end subroutine twice_i
  subroutine twice_r(a, b)
    real(8), intent(in) :: a
    real(8), intent(out) :: b
    b = 2.0d0*a*a
  end subroutine twice_r
  real(8) function nrm_s(a)
    real(8), intent(in) :: a
    nrm_s = abs(a)
  end function nrm_s
  real(8) function nrm_v(a)
    real(8), intent(in) :: a(:)
    nrm_v = sqrt(sum(a*a))
  end function nrm_v
  subroutine gen_head(x, v, y, w)
    real(8), intent(in) :: x
    real(8), intent(in) :: v(3)
    real(8), intent(out) :: y
    real(8), intent(out) :: w
    real(8) :: t
    integer :: k, m
    k = sq(3)
    call twice(k, m)
    call twice(x, t)
    y = sq(x) + t + k + sq(2.0d0*x) + sq(sin(x))
    w = nrm(v) + nrm(v(2)) + m*nrm(v(1:2))
  end subroutine gen_head
end module generic_specific
