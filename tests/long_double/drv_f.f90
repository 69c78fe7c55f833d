! Driver of quad.f90 in real(16): the tangent against central differences, the adjoint against
! the tangent (dot product); prints the two relative errors.
program drv
  use q_m_d, only: f_d
  use q_m_b, only: f_b
  use q_m, only: f, qp
  implicit none
  integer, parameter :: n = 5
  real(qp) :: a(n), ad(n), ab(n), y, yd, yb, yp, ym, h = 1.0e-10_qp
  integer :: i
  do i = 1, n
    a(i) = 0.7_qp + 0.1_qp*i
    ad(i) = 0.3_qp + 0.05_qp*i
  end do
  ab = 0
  call f_d(n, a, ad, y, yd)
  call f(n, a + h*ad, yp)
  call f(n, a - h*ad, ym)
  yb = 1.3_qp
  call f_b(n, a, ab, y, yb)
  print '(2es12.3)', real(abs((yp - ym)/(2*h) - yd)/abs(yd), 8), &
    real(abs(sum(ad*ab) - 1.3_qp*yd)/abs(1.3_qp*yd), 8)
end program drv
