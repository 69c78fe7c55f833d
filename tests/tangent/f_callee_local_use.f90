! radtap: -head run -vars "y" -outvars "y"
! sizes: nt=4
! A module variable reached only through `use m2, only: fold` inside the callees (procedure-level
! USE, as long modules write it), not in the head: the head zeroed `foldd` / `foldb` with only
! the primal `use m2, only: fold` in scope (gfortran: "Symbol 'foldd' has no IMPLICIT type").
! The derivative module is now used beside it.
module m2
  implicit none
  real(8) :: fold
end module m2

module m
  implicit none
contains
  subroutine reset(y)
    use m2, only: fold
    real(8), intent(in) :: y
    fold = 0.5d0*y
  end subroutine reset

  subroutine step(y)
    use m2, only: fold
    real(8), intent(inout) :: y
    y = y + 0.1d0*fold*y
    fold = -y*y + 0.2d0*fold
  end subroutine step

  subroutine run(y, nt)
    real(8), intent(inout) :: y
    integer, intent(in) :: nt
    integer :: it
    call reset(y)
    do it = 1, nt
      call step(y)
    end do
  end subroutine run
end module m
