! radtap: -head mv_head -vars "a" -outvars "b"
! sizes:
! Module variables carry activity: the head copies input a into module scalar
! gin and array gvec, module procedure mv_compute reads them and writes gout,
! which the head reads back into b. coef (initialised constants), ncalls passive.
module mv_state
  implicit none
  real(8) :: gin, gout
  real(8) :: gvec(4)
  real(8) :: coef(3) = (/ 1.0d0, 0.5d0, 0.25d0 /)
  integer :: ncalls = 0
contains
  subroutine mv_compute()
    integer :: i
    gout = coef(1)*gin + coef(2)*gin**2 + coef(3)*sin(gin)
    do i = 1, 4
      gout = gout + 0.1d0*gvec(i)**2
    end do
    ncalls = ncalls + 1
  end subroutine mv_compute
end module mv_state

subroutine mv_head(a, b)
  use mv_state
  implicit none
  real(8), intent(in) :: a
  real(8), intent(out) :: b
  integer :: i
  gin = a
  do i = 1, 4
    gvec(i) = a*dble(i)*0.5d0
  end do
  call mv_compute()
  gin = gout*0.5d0
  call mv_compute()
  b = gout + a
end subroutine mv_head
