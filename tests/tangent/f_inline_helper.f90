! radtap: -head "layer(y e)/(x w b)"
! sizes: n=5
! Small helper functions called in a loop are inlined before differentiation (issue 47):
! `sq(y(i))` and `scaled(x(i), k)` (an integer(8) dummy and actual) become their expressions
! in the loop; `sq(w)` outside the loop stays a call, and so do `shifted(x(i))` (it reads a
! module variable) and `sigmoid(w * x(i) + b)` (it calls `exp`).
module layer_m
  implicit none
  real(8) :: shift = 0.25d0
contains
  pure real(8) function sigmoid(z)
    real(8), intent(in) :: z
    sigmoid = 1.0d0 / (1.0d0 + exp(-z))
  end function sigmoid

  real(8) function sq(t)
    real(8), intent(in) :: t
    sq = t * t
  end function sq

  real(8) function scaled(t, k)
    real(8), intent(in) :: t
    integer(8), intent(in) :: k
    scaled = t * k
  end function scaled

  real(8) function shifted(t)
    real(8), intent(in) :: t
    shifted = t + shift
  end function shifted

  subroutine layer(n, x, w, b, y, e)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), w, b
    real(8), intent(out) :: y(n), e
    integer :: i
    integer(8) :: k
    e = sq(w)
    k = 3
    do i = 1, n
      y(i) = sigmoid(w * x(i) + b)
      e = e + sq(y(i)) + scaled(x(i), k) * shifted(x(i))
    end do
  end subroutine layer
end module layer_m
