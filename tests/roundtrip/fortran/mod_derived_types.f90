! Derived types: nesting, array components, component access with
! %, structure constructors and arrays of derived type.
module shapes_types
  implicit none
  type :: point
    real :: x = 0.0, y = 0.0
  end type point

  type :: polygon
    character(len=12) :: name
    integer :: nvert
    type(point) :: vert(6)
  end type polygon

  type :: scene
    type(polygon) :: polys(2)
    integer :: ids(2) = [0, 0]
  end type scene
contains
  real function poly_area(p)
    type(polygon), intent(in) :: p
    integer :: i, j
    poly_area = 0.0
    do i = 1, p%nvert
      j = mod(i, p%nvert) + 1
      poly_area = poly_area + p%vert(i)%x * p%vert(j)%y &
                            - p%vert(j)%x * p%vert(i)%y
    end do
    poly_area = abs(poly_area) / 2.0
  end function poly_area

  function centroid(p) result(c)
    type(polygon), intent(in) :: p
    type(point) :: c
    c%x = sum(p%vert(1:p%nvert)%x) / p%nvert
    c%y = sum(p%vert(1:p%nvert)%y) / p%nvert
  end function centroid
end module shapes_types

program derived_types
  use shapes_types
  implicit none
  type(point) :: origin, c
  type(polygon) :: sq, tri
  type(scene) :: sc
  integer :: i

  origin = point(0.0, 0.0)
  sq%name = 'square'
  sq%nvert = 4
  sq%vert(1) = origin
  sq%vert(2) = point(2.0, 0.0)
  sq%vert(3) = point(2.0, 2.0)
  sq%vert(4) = point(x=0.0, y=2.0)

  tri = polygon('triangle', 3, [point(0.0, 0.0), point(4.0, 0.0), &
                point(0.0, 3.0), (point(), i = 1, 3)])

  sc%polys(1) = sq
  sc%polys(2) = tri
  sc%ids = [101, 202]

  do i = 1, 2
    c = centroid(sc%polys(i))
    write(*,'(A,I4,1X,A12,A,F8.3,A,2F8.3)') 'id', sc%ids(i), &
      sc%polys(i)%name, ' area', poly_area(sc%polys(i)), &
      ' centroid', c%x, c%y
  end do

  sc%polys(2)%vert(2)%x = 8.0
  write(*,'(A,F8.3)') 'stretched triangle area', poly_area(sc%polys(2))
  write(*,'(A,F8.3)') 'original triangle area ', poly_area(tri)
  write(*,'(A,4F6.1)') 'square xs:', sq%vert(1:4)%x
  write(*,'(A,L2)') 'default point is origin:', &
    tri%vert(6)%x == 0.0 .and. tri%vert(6)%y == 0.0
end program derived_types
