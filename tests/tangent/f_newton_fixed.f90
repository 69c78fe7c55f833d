! radtap: -head nf_head -vars "p" -outvars "root"
! sizes:
! A fixed number of Newton steps solving f(r; p) = r**3 + p(1)*r - p(2) = 0 from a start
! that depends on the parameters, with the residual and its r-derivative in module
! functions (the tangent differentiates through every iteration) and a DO loop with EXIT
! on an iteration count.
module nf_mod
  implicit none
  integer, parameter :: dp = selected_real_kind(15, 300)
contains
  pure function resid(r, p) result(f)
    real(dp), intent(in) :: r, p(2)
    real(dp) :: f
    f = r**3 + p(1)*r - p(2)
  end function resid
  pure function dresid(r, p) result(f)
    real(dp), intent(in) :: r, p(2)
    real(dp) :: f
    f = 3.0_dp*r**2 + p(1)
  end function dresid
  subroutine nf_head(p, root)
    real(dp), intent(in) :: p(2)
    real(dp), intent(out) :: root
    integer :: it
    root = 0.5_dp + 0.25_dp*p(2)
    do it = 1, 30
      if (it > 8) exit
      root = root - resid(root, p)/dresid(root, p)
    end do
  end subroutine nf_head
end module nf_mod
