! radtap: -head shared_operands -vars "x" -outvars "y"
! sizes: n=5
! Nested cheap intrinsics (abs of abs, max of abs) and long product chains: the tangent
! shares the inner calls and the large factors through temporaries.
subroutine shared_operands(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(3)
  y(1) = abs(abs(abs(x(1) - 2.0d0) - 0.1d0) + sqrt(x(2))) * max(abs(x(3) - 2.0d0), 0.2d0)
  y(2) = (0.9d0 + 0.1d0*x(1))*(0.9d0 + 0.1d0*x(2))*(0.9d0 + 0.1d0*x(3))*(0.9d0 + 0.1d0*x(4)) &
       *(0.9d0 + 0.1d0*x(5))*(0.9d0 + 0.1d0*x(1))*(0.9d0 + 0.1d0*x(2))*(0.9d0 + 0.1d0*x(3)) &
       *(0.9d0 + 0.1d0*x(4))*(0.9d0 + 0.1d0*x(5))*(0.9d0 + 0.1d0*x(1))*(0.9d0 + 0.1d0*x(2)) &
       *(0.9d0 + 0.1d0*x(3))*(0.9d0 + 0.1d0*x(4))*(0.9d0 + 0.1d0*x(5))*(0.9d0 + 0.1d0*x(1)) &
       *(0.9d0 + 0.1d0*x(2))*(0.9d0 + 0.1d0*x(3))*(0.9d0 + 0.1d0*x(4))*(0.9d0 + 0.1d0*x(5))
  y(3) = (0.9d0 + 0.1d0*x(1))*((0.9d0 + 0.1d0*x(2))*((0.9d0 + 0.1d0*x(3))*((0.9d0 + 0.1d0*x(4)) &
       *((0.9d0 + 0.1d0*x(5))*((0.9d0 + 0.1d0*x(1))*((0.9d0 + 0.1d0*x(2))*((0.9d0 + 0.1d0*x(3)) &
       *((0.9d0 + 0.1d0*x(4))*((0.9d0 + 0.1d0*x(5)))))))))))
end subroutine shared_operands
