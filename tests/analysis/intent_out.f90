! radtap: -head fill -outvars "w r"
! -vars omitted: independents default to all real inputs of fill, i.e. x and r.
! w is intent(out) and fully overwritten (w = x*x) before any read, so it is
! not an input and not varied at entry. r is used only linearly in
! w(2) + r, so its overwrite r = w(1)*w(3) is not TBR; w is TBR there.
subroutine fill(x, w, r)
  implicit none
  real(8), intent(in) :: x(3)
  real(8), intent(out) :: w(3)
  real(8), intent(inout) :: r
  w = x*x
  w(2) = w(2) + r
  r = w(1)*w(3)
end subroutine fill
