! Abstract data types in modules: a stack and a ring-buffer queue with
! PRIVATE components, PUBLIC procedures, a generic interface and a
! module-level error counter.
module containers
  implicit none
  private
  public :: int_stack, int_queue, push, pop, is_empty, enqueue, dequeue
  public :: error_count, peek

  integer, parameter :: capacity = 5
  integer, save :: error_count = 0

  type int_stack
    private
    integer :: items(capacity) = 0
    integer :: top = 0
  end type int_stack

  type int_queue
    private
    integer :: buf(0:capacity-1) = 0
    integer :: head = 0, count = 0
  end type int_queue

  interface is_empty
    module procedure stack_empty, queue_empty
  end interface is_empty
contains
  subroutine push(s, v)
    type(int_stack), intent(inout) :: s
    integer, intent(in) :: v
    if (s%top == capacity) then
      error_count = error_count + 1
      return
    end if
    s%top = s%top + 1
    s%items(s%top) = v
  end subroutine push

  integer function pop(s)
    type(int_stack), intent(inout) :: s
    if (s%top == 0) then
      error_count = error_count + 1
      pop = -huge(0)
      return
    end if
    pop = s%items(s%top)
    s%top = s%top - 1
  end function pop

  integer function peek(s)
    type(int_stack), intent(in) :: s
    peek = 0
    if (s%top > 0) peek = s%items(s%top)
  end function peek

  logical function stack_empty(s)
    type(int_stack), intent(in) :: s
    stack_empty = s%top == 0
  end function stack_empty

  subroutine enqueue(q, v)
    type(int_queue), intent(inout) :: q
    integer, intent(in) :: v
    if (q%count == capacity) then
      error_count = error_count + 1
    else
      q%buf(mod(q%head + q%count, capacity)) = v
      q%count = q%count + 1
    end if
  end subroutine enqueue

  integer function dequeue(q) result(v)
    type(int_queue), intent(inout) :: q
    v = q%buf(q%head)
    q%head = mod(q%head + 1, capacity)
    q%count = q%count - 1
  end function dequeue

  logical function queue_empty(q)
    type(int_queue), intent(in) :: q
    queue_empty = q%count == 0
  end function queue_empty
end module containers

program mod_stack_queue
  use containers
  implicit none
  type(int_stack) :: s
  type(int_queue) :: q
  integer :: i

  do i = 1, 7
    call push(s, i * 11)
  end do
  write(*,'(A,I0,A,I0)') 'top = ', peek(s), ' errors = ', error_count
  write(*,'(A)', advance='no') 'popped:'
  do while (.not. is_empty(s))
    write(*,'(I4)', advance='no') pop(s)
  end do
  write(*,*)
  i = pop(s)
  write(*,'(A,I0)') 'errors after empty pop = ', error_count

  do i = 1, 4
    call enqueue(q, i)
  end do
  write(*,'(A,I0)') 'dequeued ', dequeue(q)
  write(*,'(A,I0)') 'dequeued ', dequeue(q)
  do i = 5, 8
    call enqueue(q, i)
  end do
  write(*,'(A)', advance='no') 'queue drain:'
  do while (.not. is_empty(q))
    write(*,'(I3)', advance='no') dequeue(q)
  end do
  write(*,*)
  write(*,'(A,I0)') 'final errors = ', error_count
end program mod_stack_queue
