! radtap: -head iface_head -vars "x" -outvars "y"
! sizes:
! External procedures with assumed-shape and OPTIONAL dummies, called through an interface
! block written in the caller (legacy libraries with modern callers): the derivatives of
! `wnorm` and `scale_by` need explicit interfaces too, so the caller's derivative declares
! them in its copy of the interface block (gfortran refused the call to wnorm_d before).
subroutine wnorm(v, r, w)
  implicit none
  real(8), intent(in) :: v(:)
  real(8), intent(out) :: r
  real(8), intent(in), optional :: w(:)
  if (present(w)) then
    r = sqrt(sum(w*v**2))
  else
    r = sqrt(sum(v**2))
  end if
end subroutine wnorm

subroutine scale_by(v, s)
  implicit none
  real(8), intent(inout) :: v(:)
  real(8), intent(in) :: s
  v = v*s + sin(v)
end subroutine scale_by

subroutine iface_head(x, y)
  implicit none
  real(8), intent(in) :: x(4)
  real(8), intent(out) :: y(2)
  real(8) :: t(4), wts(4)
  interface
    subroutine wnorm(v, r, w)
      real(8), intent(in) :: v(:)
      real(8), intent(out) :: r
      real(8), intent(in), optional :: w(:)
    end subroutine wnorm
    subroutine scale_by(v, s)
      real(8), intent(inout) :: v(:)
      real(8), intent(in) :: s
    end subroutine scale_by
  end interface
  t = x
  wts = (/1.0d0, 2.0d0, 0.5d0, 1.5d0/)
  call scale_by(t, x(1))
  call wnorm(t, y(1))
  call wnorm(t(2:4), y(2), wts(1:3))
end subroutine iface_head
