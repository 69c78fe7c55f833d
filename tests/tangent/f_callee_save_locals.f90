! radtap: -head csl_run -vars "x" -outvars "y"
! sizes:
! SAVE locals of called routines that only code dead for derivatives reads: a call counter
! and a "warned once" flag behind a branch the run never takes. The caller cannot record
! them around the checkpointed calls (they are not visible there) and need not: the
! adjoint refused ("values the adjoint needs here cannot be recorded (memory not visible
! in this procedure)").
module csl_mod
  implicit none
  real(8) :: state(4)
  character(len=4) :: mode = 'clip'
contains
  subroutine limit(lo)
    real(8), intent(in) :: lo
    logical, save :: warned = .false.
    integer :: i
    select case (mode)
    case ('clip')
      do i = 1, 4
        state(i) = max(state(i), lo) + 0.1d0*state(i)**2
      end do
    case default
      if (.not. warned) then
        warned = .true.
        mode = 'clip'
      end if
    end select
  end subroutine limit

  subroutine advance(x)
    real(8), intent(in) :: x(4)
    integer, save :: ncalls = 0
    integer :: i
    ncalls = ncalls + 1
    do i = 1, 4
      state(i) = state(i)*cos(0.3d0*x(i)) + sin(state(i))*x(i)
    end do
    call limit(-10.0d0)
  end subroutine advance
end module csl_mod

subroutine csl_run(x, y)
  use csl_mod
  implicit none
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y
  integer :: k
  mode = 'clip'
  state = x
  do k = 1, 3
    call advance(x)
  end do
  y = sum(state**2)
end subroutine csl_run
