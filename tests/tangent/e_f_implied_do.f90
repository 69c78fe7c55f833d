! radtap: -head ido -vars "x" -outvars "y z"
! sizes:
! Array constructors made only of implied DOs (nested, with a step), whose
! tangent is the same implied DO over the items' tangents (it was dropped).
subroutine ido(x, y, z)
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y(4), z
  integer :: i, j
  y = [(x(i)**2 + x(1), i = 1, 4)]
  z = sum([((x(i)*x(j), i = 1, 2), j = 3, 4)]) + sum([(x(i), i = 4, 1, -2)])
end subroutine ido
