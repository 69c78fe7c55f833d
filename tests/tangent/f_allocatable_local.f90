! radtap: -head alloc_work -vars "x" -outvars "s"
! sizes: n=6
! Local ALLOCATABLE work arrays sized from the integer argument n: allocated,
! filled from active x, combined with whole-array and section operations, read
! in a loop, then deallocated.
subroutine alloc_work(n, x, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: s
  real(8), allocatable :: w(:), c(:)
  integer :: i
  allocate(w(2*n), c(n))
  do i = 1, n
    w(i) = x(i)**2
    w(n + i) = cos(0.5d0*x(i)) + 1.0d0
  end do
  c = w(1:n)*w(n+1:2*n)
  s = 0.0d0
  do i = 1, n
    s = s + c(i)/(1.0d0 + w(i))
  end do
  deallocate(w, c)
end subroutine alloc_work
