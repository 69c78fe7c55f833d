! A free-form file with an upper-case extension: radtap runs the C preprocessor first.
#define N 5
#define SCALE 2.0d0
program preprocessed_macros
  implicit none
  real(8) :: a(N)
  integer :: i
#ifdef NO_SUCH_MACRO
  this line is removed by the preprocessor
#else
  do i = 1, N
    a(i) = SCALE*i
  end do
#endif
  write (*, '(5f8.2)') a
end program preprocessed_macros
