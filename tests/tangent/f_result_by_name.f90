! radtap: -head "cubic_root(cubic_root) / (a, b)"
! sizes:
! A function with result(r) differentiated with Tapenade's head string: the
! dependent is named by the function's name, the lists use commas and spaces
! around the separator (all refused before: AD041, then AD040 on `b)`).
module cube_m
  implicit none
contains
  function cubic_root(a, b) result(r)
    real(8), intent(in) :: a, b
    real(8) :: r
    r = (a*b + 1.0d0)**(1.0d0/3.0d0) + sin(a)*b
  end function cubic_root
end module cube_m
