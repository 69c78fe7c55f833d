! radtap: -head ptr_head -vars "x" -outvars "x y"
! sizes: n=6
! Local pointers into a TARGET argument: p(:) => x(2:n) and scalar q => x(1);
! x is overwritten through p and q, then read back through both.
subroutine ptr_head(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout), target :: x(n)
  real(8), intent(out) :: y
  real(8), pointer :: p(:), q
  p => x(2:n)
  p = p*1.5d0 + sin(p)
  q => x(1)
  q = q*x(n)
  y = sum(p)*q + p(1)
  nullify(p, q)
end subroutine ptr_head
