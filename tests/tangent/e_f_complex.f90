! radtap: -head cplx -vars "x" -outvars "y"
! sizes:
! complex(8) arithmetic: cmplx, product, conjg, real/aimag, abs.
subroutine cplx(x, y)
  real(8), intent(in) :: x(2)
  real(8), intent(out) :: y(2)
  complex(8) :: z, w
  z = cmplx(x(1), x(2), 8)
  w = z*z + conjg(z)*x(1)
  y(1) = real(w, 8) + aimag(w)*x(2)
  y(2) = abs(w) + aimag(conjg(w))
end subroutine cplx
