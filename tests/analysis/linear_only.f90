! radtap: -head linmix -vars "a b" -outvars "u v"
! a (and u) are used only linearly (sums, products with constants): their
! values never appear in a derivative instruction, so the overwrites
! a = a - 2*u and u = u + a are not TBR (no push). b is used in sin(b), so b
! is TBR and its overwrite b = 2*b + 1 must be recorded.
subroutine linmix(a, b, u, v)
  implicit none
  real(8), intent(inout) :: a, b
  real(8), intent(out) :: u, v
  u = 3.0d0*a + 1.0d0
  a = a - 2.0d0*u
  v = sin(b)
  b = 2.0d0*b + 1.0d0
  v = v + b
  u = u + a
end subroutine linmix
