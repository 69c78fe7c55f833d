! Generic interfaces resolving to specific module procedures by
! argument type and rank, plus operator and assignment overloading.
module vec_mod
  implicit none
  type :: vec2
    real :: x, y
  end type vec2

  interface swap
    module procedure swap_int, swap_real, swap_vec
  end interface swap

  interface describe
    module procedure describe_scalar, describe_array
  end interface

  interface operator(+)
    module procedure vec_add
  end interface operator(+)

  interface operator(.dot.)
    module procedure vec_dot
  end interface

  interface assignment(=)
    module procedure vec_from_real
  end interface assignment(=)
contains
  subroutine swap_int(a, b)
    integer, intent(inout) :: a, b
    integer :: t
    t = a; a = b; b = t
  end subroutine swap_int

  subroutine swap_real(a, b)
    real, intent(inout) :: a, b
    real :: t
    t = a; a = b; b = t
  end subroutine swap_real

  subroutine swap_vec(a, b)
    type(vec2), intent(inout) :: a, b
    type(vec2) :: t
    t = a; a = b; b = t
  end subroutine swap_vec

  subroutine describe_scalar(x)
    integer, intent(in) :: x
    write(*,'(A,I0)') 'scalar ', x
  end subroutine describe_scalar

  subroutine describe_array(x)
    integer, intent(in) :: x(:)
    write(*,'(A,I0,A,I0)') 'array of size ', size(x), ' sum ', sum(x)
  end subroutine describe_array

  type(vec2) function vec_add(a, b)
    type(vec2), intent(in) :: a, b
    vec_add = vec2(a%x + b%x, a%y + b%y)
  end function vec_add

  real function vec_dot(a, b)
    type(vec2), intent(in) :: a, b
    vec_dot = a%x * b%x + a%y * b%y
  end function vec_dot

  subroutine vec_from_real(v, r)
    type(vec2), intent(out) :: v
    real, intent(in) :: r
    v%x = r
    v%y = r
  end subroutine vec_from_real
end module vec_mod

program generic_interfaces
  use vec_mod
  implicit none
  integer :: i, j
  real :: a, b
  type(vec2) :: u, v, w
  i = 1; j = 2
  a = 1.5; b = -2.5
  u = vec2(1.0, 2.0)
  v = 3.0
  call swap(i, j)
  call swap(a, b)
  call swap(u, v)
  write(*,'(A,2I3)') 'ints  ', i, j
  write(*,'(A,2F6.2)') 'reals ', a, b
  write(*,'(A,4F6.2)') 'vecs  ', u, v
  w = u + v + vec2(0.5, 0.5)
  write(*,'(A,2F6.2)') 'sum   ', w%x, w%y
  write(*,'(A,F8.3)') 'dot   ', u .dot. v
  call describe(42)
  call describe([1, 2, 3, 4])
end program generic_interfaces
