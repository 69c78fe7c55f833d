! radtap: -head top -vars "x" -outvars "y"
! An array component of a record with a derivative passed to a function (`f(m%p)`): vector
! mode wrote `call f_dv(m%p, md(:)%p, ...)`, which does not compile (the derivative is an array
! of records, one per direction). Refused in vector mode; tangent and adjoint are right.
module mt
  implicit none
  type par_t
    real(8) :: p(2)
  end type par_t
contains
  real(8) function f(p)
    real(8), intent(in) :: p(2)
    f = p(1) * p(2)
  end function f
  subroutine top(x, y)
    real(8), intent(in) :: x(2)
    real(8), intent(out) :: y
    type(par_t) :: m
    m%p = x
    y = f(m%p)
  end subroutine top
end module mt
