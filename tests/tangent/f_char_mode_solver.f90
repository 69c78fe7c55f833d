! radtap: -head cm_head -vars "x" -outvars "y"
! sizes: n=5
! Character options as real codes pass them: a solver picks its update rule from a
! character(len=*) argument compared with trim and select case on strings, a module
! character(len=8) setting changed by a callee and read back after it.
module cm_settings
  implicit none
  character(len=8) :: scheme = 'explicit'
end module cm_settings

module cm_solver
  use cm_settings
  implicit none
contains
  subroutine relax(u, n, how)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n)
    character(len=*), intent(in) :: how
    integer :: i
    real(8) :: t(n)
    select case (trim(how))
    case ('jacobi')
      t = u
      u(2:n-1) = 0.5d0*(t(1:n-2) + t(3:n))
    case ('damped')
      do i = 2, n - 1
        u(i) = 0.7d0*u(i) + 0.15d0*(u(i-1) + u(i+1))
      end do
    case default
      u = u*0.9d0
    end select
    if (scheme == 'explicit') scheme = 'implicit'
  end subroutine relax

  subroutine cm_head(n, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    real(8), intent(out) :: y
    real(8) :: u(n)
    character(len=6) :: rule
    u = x**2
    scheme = 'explicit'
    rule = 'jacobi'
    call relax(u, n, rule)
    if (trim(scheme) == 'implicit') then
      call relax(u, n, 'damped')
    else
      call relax(u, n, 'none')
    end if
    y = sum(u*x)
  end subroutine cm_head
end module cm_solver
