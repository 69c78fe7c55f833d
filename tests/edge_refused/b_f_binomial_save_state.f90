! radtap: -head m.run -vars "y" -outvars "y"
! A SAVE variable of a callee carrying state from one time step to the next (an
! Adams-Bashforth previous tendency) under BINOMIAL-CKP: the revolve re-runs of the steps
! read the value the forward sweep left (dot-product test 1e-1 off, no warning). Refused at
! the loop (the state cannot be recorded from `run`).
module m
  implicit none
contains
  subroutine step(y, first)
    real(8), intent(inout) :: y
    logical, intent(in) :: first
    real(8), save :: fold
    real(8) :: f
    f = -y*y
    if (first) then
      y = y + 0.1d0*f
    else
      y = y + 0.1d0*(1.5d0*f - 0.5d0*fold)
    end if
    fold = f
  end subroutine step
  subroutine run(y, nt)
    real(8), intent(inout) :: y
    integer, intent(in) :: nt
    integer :: it
    !$AD BINOMIAL-CKP nt 2 1
    do it = 1, nt
      call step(y, it == 1)
    end do
  end subroutine run
end module m
