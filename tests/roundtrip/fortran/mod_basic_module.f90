! A module with variables, named constants and module procedures
! that share state through the module.
module counters
  implicit none
  integer, parameter :: max_items = 8
  real, parameter :: growth = 1.5
  integer :: nitems = 0
  real :: items(max_items) = 0.0
  character(len=16) :: label = 'default'
contains
  subroutine add_item(x)
    real, intent(in) :: x
    if (nitems < max_items) then
      nitems = nitems + 1
      items(nitems) = x
    else
      print *, 'list full, dropping item'
    end if
  end subroutine add_item

  function total() result(s)
    real :: s
    s = sum(items(1:nitems))
  end function total

  real function mean()
    if (nitems > 0) then
      mean = total() / real(nitems)
    else
      mean = 0.0
    end if
  end function mean

  subroutine grow_all()
    items(1:nitems) = items(1:nitems) * growth
  end subroutine grow_all

  subroutine report(title)
    character(len=*), intent(in) :: title
    integer :: i
    write(*,'(4A,I0)') trim(label), ': ', title, ' n=', nitems
    write(*,'(8F8.2)') (items(i), i = 1, nitems)
    write(*,'(A,F10.4,A,F10.4)') 'total=', total(), ' mean=', mean()
  end subroutine report
end module counters

program mod_basic
  use counters
  implicit none
  integer :: k
  label = 'basket'
  do k = 1, 5
    call add_item(real(k) * 2.0)
  end do
  call report('after adding')
  call grow_all()
  call report('after growth')
  do k = 1, 5
    call add_item(1.0)
  end do
  call report('after filling')
  print '(A,I0,A,F4.1)', 'max_items=', max_items, ' growth=', growth
end program mod_basic
