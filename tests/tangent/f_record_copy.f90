! radtap: -head "flow(y)/(x)"
! sizes: x=3 y=2
! Whole derived-type assignments in the adjoint: `v = w` of a local, of a dummy, of an array
! element of records (`cells(i) = c`), of a nested component (`p%state = v`) and into an
! intent(out) dummy; only the active real components carry adjoints (the integer `tag` and
! the passive `label` none).
module cell_types
  use iso_fortran_env, only: wp => real64
  implicit none
  type :: state
    real(wp) :: h, u
    integer :: tag
  end type
  type :: parcel
    type(state) :: state
    real(wp) :: label
  end type
contains
  subroutine make(x, v)
    real(wp), intent(in) :: x(3)
    type(state), intent(out) :: v
    type(state) :: w
    w%h = x(1) * x(2)
    w%u = sin(x(3)) + x(1)
    w%tag = 2
    v = w
  end subroutine

  subroutine relax(cells, n)
    integer, intent(in) :: n
    type(state), intent(inout) :: cells(n)
    type(state) :: c
    integer :: i
    do i = 2, n
      c = cells(i - 1)
      c%h = 0.5_wp * (c%h + cells(i)%h)
      c%u = c%u * cells(i)%u
      cells(i) = c
    end do
  end subroutine

  subroutine flow(x, y)
    real(wp), intent(in) :: x(3)
    real(wp), intent(out) :: y(2)
    type(state) :: v, cells(4)
    type(parcel) :: p
    integer :: i
    call make(x, v)
    do i = 1, 4
      cells(i) = v
      cells(i)%h = cells(i)%h + 0.1_wp * i * x(2)
    end do
    call relax(cells, 4)
    p%label = 3.0_wp
    p%state = cells(4)
    v = p%state
    y(1) = v%h * v%u + p%label
    y(2) = cos(cells(2)%u) * cells(3)%h
  end subroutine
end module
