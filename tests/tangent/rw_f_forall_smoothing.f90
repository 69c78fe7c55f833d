! radtap: -head terrain_smooth -vars "h" -outvars "hs slope"
! sizes: nx=6 ny=5
! Terrain preprocessing for an atmospheric model: a 2-D field smoothed by a 9-point
! filter written with FORALL over the interior, edges copied with array sections, a
! WHERE clipping of the smoothed field to a floor (decided: the floor is below every
! value the inputs give), TRANSPOSE to apply the same 1-D pass along both directions,
! and the mean slope from SUM plus the corner height picked by MAXVAL of a weighted
! field (weights growing tenfold per cell, so the maximum is always at the corner).
module terrain_filters
  use iso_fortran_env, only: wp => real64
  implicit none
contains
  subroutine pass_1d(m, n, a, b)
    integer, intent(in) :: m, n
    real(wp), intent(in) :: a(m, n)
    real(wp), intent(out) :: b(m, n)
    integer :: i
    b(1, :) = a(1, :)
    b(m, :) = a(m, :)
    forall (i = 2:m - 1)
      b(i, :) = 0.25_wp*a(i - 1, :) + 0.5_wp*a(i, :) + 0.25_wp*a(i + 1, :)
    end forall
  end subroutine pass_1d
end module terrain_filters

subroutine terrain_smooth(nx, ny, h, hs, slope)
  use terrain_filters
  implicit none
  integer, intent(in) :: nx, ny
  real(wp), intent(in) :: h(nx, ny)
  real(wp), intent(out) :: hs(nx, ny), slope
  real(wp) :: t1(nx, ny), tt(ny, nx), tt2(ny, nx), box(nx, ny)
  real(wp) :: gx(nx - 1, ny), wts(nx, ny)
  integer :: i, j
  forall (i = 1:nx, j = 1:ny) wts(i, j) = 10.0_wp**(i + j)
  box = h
  forall (i = 2:nx - 1, j = 2:ny - 1)
    box(i, j) = (4.0_wp*h(i, j) + h(i - 1, j) + h(i + 1, j) + h(i, j - 1) + h(i, j + 1) &
                 + 0.5_wp*(h(i - 1, j - 1) + h(i + 1, j + 1) + h(i - 1, j + 1) + h(i + 1, j - 1)))/10.0_wp
  end forall
  call pass_1d(nx, ny, box, t1)
  tt = transpose(t1)
  call pass_1d(ny, nx, tt, tt2)
  hs = transpose(tt2)
  where (hs < 0.1_wp)
    hs = 0.1_wp
  elsewhere
    hs = hs + 0.05_wp*hs**2
  end where
  gx = hs(2:nx, :) - hs(1:nx - 1, :)
  slope = 10.0_wp*sum(gx**2)/size(gx) + maxval(hs*wts)/wts(nx, ny)
end subroutine terrain_smooth
