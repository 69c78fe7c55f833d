! radtap: -head rno_head -vars "a" -outvars "y"
! sizes:
! An intrinsic subroutine overwriting an active variable: `call random_number(x)` after
! `x = 2 a` leaves `x` with no derivative (the generator is seeded, so the values are the
! same at every run). The record's signature says `harvest` is written; before, the analyses
! took the call to add to `x`'s value, and the adjoint kept the adjoint of `x = 2 a`.
subroutine rno_head(a, y)
  implicit none
  real(8), intent(in) :: a
  real(8), intent(out) :: y
  real(8) :: x(3)
  integer :: k
  integer, allocatable :: seed(:)
  call random_seed(size=k)
  allocate(seed(k))
  seed = 12345
  call random_seed(put=seed)
  x = 2d0 * a
  call random_number(x)
  y = sum(x) * a + a * a
end subroutine rno_head
