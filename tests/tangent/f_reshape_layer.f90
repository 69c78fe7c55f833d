! radtap: -head rl_head -vars "w" -outvars "y"
! sizes:
! A flat parameter vector reshaped into a weight matrix (the way optimisers hand parameters
! to models), a dense layer with tanh, and a reshape of the layer's output back into a
! 2x2 block that is reduced: the adjoint of reshape is the reshape of the adjoint back to
! the source's shape (refused before).
module rl_mod
  implicit none
contains
  subroutine rl_head(w, y)
    real(8), intent(in) :: w(12)
    real(8), intent(out) :: y(2)
    real(8) :: a(4, 3), h(4), x(3), blk(2, 2)
    x = (/0.3d0, -0.2d0, 0.5d0/)
    a = reshape(w, (/4, 3/))
    h = tanh(matmul(a, x) + 0.1d0)
    blk = reshape(h, (/2, 2/))
    y(1) = sum(blk(1, :)**2) + blk(2, 2)
    y(2) = sum(reshape(w(1:6), (/3, 2/))*1.5d0)
  end subroutine rl_head
end module rl_mod
