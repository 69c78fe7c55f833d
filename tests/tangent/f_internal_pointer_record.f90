! radtap: -head ipr_h -vars "x" -outvars "y"
! sizes: n=4
! An internal procedure using, by host association, a host pointer to the dummy, a derived-type
! local with a real and a logical component (recorded by component in the adjoint), a
! character local and the integer dummy `n`.
module ipr_mod
  implicit none
  type st
    real(8) :: a
    logical :: on
  end type st
contains
  subroutine ipr_h(x, y, n)
    integer, intent(in) :: n
    real(8), intent(in), target :: x(n)
    real(8), intent(out) :: y
    type(st) :: s
    real(8), pointer :: p(:)
    character(len=8) :: lab
    integer :: i
    p => x
    s%a = 1.0d0
    s%on = .true.
    lab = 'go'
    do i = 1, n
      call upd(i)
    end do
    y = s%a
  contains
    subroutine upd(k)
      implicit none
      integer, intent(in) :: k
      if (s%on .and. lab(1:2) == 'go') s%a = s%a*sin(p(k)) + p(k)
      if (k == n) s%on = .false.
    end subroutine upd
  end subroutine ipr_h
end module ipr_mod
