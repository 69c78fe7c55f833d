! radtap: -head p7 -vars "x" -outvars "y"
! A reference to an array-valued function whose result is allocatable: its shape cannot be
! written where it is referenced, so no temporary can hold it (the temporaries were scalars;
! results of explicit shape are differentiated: tests/tangent/f_array_valued_qsat.f90).
module p7m
  implicit none
contains
  function twice(v) result(r)
    real(8), intent(in) :: v(:)
    real(8), allocatable :: r(:)
    allocate(r(size(v)))
    r = 2.0d0*v*v
  end function twice
  subroutine p7(x, y)
    real(8), intent(in) :: x(3)
    real(8), intent(out) :: y(3)
    y = twice(x) + x
  end subroutine p7
end module p7m
