! radtap: -head clip -vars "u" -outvars "v s"
! Array notation and WHERE/ELSEWHERE. Activity is per whole array: v is
! active after the WHERE even though ELSEWHERE assigns a constant, and the
! section assignment v(1:2) = 2*v(1:2) is a partial write (v stays varied).
! The mask u > 0 is diff-live control; s = sum(v) is active, n = count() not.
subroutine clip(u, v, s, n)
  implicit none
  real(8), intent(in) :: u(:)
  real(8), intent(out) :: v(size(u)), s
  integer, intent(out) :: n
  where (u > 0.0d0)
    v = u*u
  elsewhere
    v = 0.0d0
  end where
  v(1:2) = 2.0d0*v(1:2)
  s = sum(v)
  n = count(u > 0.0d0)
end subroutine clip
