! USE with ONLY lists and renames, PUBLIC/PRIVATE accessibility.
module geometry
  implicit none
  private
  public :: pi, area_circle, area_rect, perimeter, shape_count
  real, parameter :: pi = 3.14159265
  integer :: shape_count = 0
  real, parameter :: hidden_scale = 2.0

  interface perimeter
    module procedure perimeter_circle, perimeter_rect
  end interface perimeter
contains
  real function area_circle(r)
    real, intent(in) :: r
    area_circle = pi * r**2
    call bump()
  end function area_circle

  real function area_rect(w, h)
    real, intent(in) :: w, h
    area_rect = w * h
    call bump()
  end function area_rect

  real function perimeter_circle(r)
    real, intent(in) :: r
    perimeter_circle = hidden_scale * pi * r
  end function perimeter_circle

  real function perimeter_rect(w, h)
    real, intent(in) :: w, h
    perimeter_rect = hidden_scale * (w + h)
  end function perimeter_rect

  subroutine bump()
    shape_count = shape_count + 1
  end subroutine bump
end module geometry

module stats_mod
  implicit none
  public
  integer, private :: calls = 0
contains
  real function average(x)
    real, intent(in) :: x(:)
    calls = calls + 1
    average = sum(x) / size(x)
  end function average

  integer function call_count()
    call_count = calls
  end function call_count
end module stats_mod

program use_rename
  use geometry, only: circle => area_circle, rect => area_rect, &
                      perimeter, shape_count
  use stats_mod, only: mean => average, call_count
  use geometry, only: my_pi => pi
  implicit none
  real :: areas(3)
  areas(1) = circle(1.0)
  areas(2) = rect(2.0, 3.0)
  areas(3) = circle(0.5)
  write(*,'(A,3F10.4)') 'areas     =', areas
  write(*,'(A,F10.4)') 'mean area =', mean(areas)
  write(*,'(A,2F10.4)') 'perimeters=', perimeter(1.0), perimeter(2.0, 3.0)
  write(*,'(A,I0,A,I0)') 'shapes=', shape_count, ' mean calls=', call_count()
  write(*,'(A,F10.6)') 'my_pi     =', my_pi
end program use_rename
