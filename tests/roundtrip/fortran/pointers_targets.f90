! Pointers: pointer assignment =>, TARGET, NULLIFY, ASSOCIATED with
! and without a target, pointers to array sections, and a linked list.
module list_mod
  implicit none
  type :: node
    integer :: value
    type(node), pointer :: next => null()
  end type node
contains
  subroutine prepend(head, v)
    type(node), pointer, intent(inout) :: head
    integer, intent(in) :: v
    type(node), pointer :: p
    allocate(p)
    p%value = v
    p%next => head
    head => p
  end subroutine prepend

  subroutine print_list(head)
    type(node), pointer, intent(in) :: head
    type(node), pointer :: p
    p => head
    write(*,'(A)', advance='no') 'list:'
    do while (associated(p))
      write(*,'(I4)', advance='no') p%value
      p => p%next
    end do
    write(*,*)
  end subroutine print_list

  subroutine free_list(head)
    type(node), pointer, intent(inout) :: head
    type(node), pointer :: p
    do while (associated(head))
      p => head
      head => head%next
      deallocate(p)
    end do
  end subroutine free_list
end module list_mod

program pointers_targets
  use list_mod
  implicit none
  integer, target :: a(10), x, y
  integer, pointer :: p, q(:), r(:)
  real, pointer :: dyn(:)
  type(node), pointer :: head
  integer :: i

  a = [(i, i = 1, 10)]
  x = 5
  y = 7
  nullify(p, q)
  write(*,'(A,2L2)') 'initially associated:', associated(p), associated(q)
  p => x
  p = p + 10
  write(*,'(A,I0,A,L2)') 'x via pointer = ', x, ' assoc to x:', associated(p, x)
  p => y
  write(*,'(A,L2,A,I0)') 'assoc to x now:', associated(p, x), ' p = ', p
  q => a(2:10:2)
  write(*,'(A,5I4)') 'even elements:', q
  q = q * 100
  write(*,'(A,10I5)') 'a after update:', a
  r => q(2:4)
  write(*,'(A,3I5,A,I0)') 'r:', r, ' size ', size(r)
  allocate(dyn(3))
  dyn = [1.5, 2.5, 3.5]
  write(*,'(A,F6.2)') 'sum of dyn:', sum(dyn)
  deallocate(dyn)
  nullify(p)
  write(*,'(A,L2)') 'p associated after nullify:', associated(p)

  head => null()
  do i = 1, 5
    call prepend(head, i * 3)
  end do
  call print_list(head)
  call free_list(head)
  write(*,'(A,L2)') 'list empty:', .not. associated(head)
end program pointers_targets
