! radtap: -head "m.run(y)/(x)"
! sizes: n=3
! A SAVE state whose value the adjoint needs (`s = x*memory`): a checkpointed call runs the
! original `source` forwards and `source_b` backwards, and `source_b` keeps its own copy of
! `memory` (dot-product test off by 40%, no message). Refused at `source`; -nocheckpoint is
! right.
module m
  implicit none
contains
  subroutine source(x, s, first)
    real(8), intent(in) :: x
    real(8), intent(out) :: s
    logical, intent(in) :: first
    real(8), save :: memory
    if (first) memory = 1d0
    s = x*memory
    memory = memory*0.5d0 + x
  end subroutine source
  subroutine run(x, n, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: s
    integer :: i
    y = 0d0
    do i = 1, n
      call source(x(i), s, i == 1)
      y = y + s**2
    end do
  end subroutine run
end module m
