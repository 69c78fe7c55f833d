! radtap: -head energy -vars "q k"
! sizes: n=5
! The head is a FUNCTION returning real(8); -outvars is omitted so the
! function result is the dependent. Chain energy with springs and a cosine
! potential; the result is assigned through the function name.
real(8) function energy(n, q, k)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: q(n), k
  integer :: i
  energy = 0.0d0
  do i = 1, n - 1
    energy = energy + 0.5d0*k*(q(i + 1) - q(i))**2 + (1.0d0 - cos(q(i)))
  end do
  energy = energy + 0.1d0*k*q(n)**2
end function energy
