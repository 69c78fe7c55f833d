! radtap: -head traj -vars "a b x z" -outvars "a b z"
! Analogue of Fig. 12 (sec. 4.9), the whole body is the differentiated code.
! Diff-liveness: c = a(n)*b(n) and z(n) = z(n) + c are not diff-live (c and z
! are never needed by a derivative); n = ind2(i+2) is (index of zb(n)).
! TBR: the initial n and b(n) are not TBR (b(n) is used only linearly), a(n) is
! TBR (used in SIN and products); n from ind1(i) is TBR when n is overwritten.
subroutine traj(a, b, z, x, ind1, ind2, i)
  implicit none
  integer, intent(in) :: i
  integer, intent(in) :: ind1(10), ind2(12)
  real(8), intent(inout) :: a(11), b(10), z(10)
  real(8), intent(in) :: x
  real(8) :: c
  integer :: n
  n = ind1(i)
  b(n) = sin(a(n)) - b(n)
  a(n) = a(n) + x
  c = a(n)*b(n)
  a(n) = a(n)*a(n+1)
  n = ind2(i+2)
  z(n) = z(n) + c
end subroutine traj
