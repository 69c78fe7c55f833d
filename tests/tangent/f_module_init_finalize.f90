! radtap: -head mif_run -vars "x" -outvars "f"
! sizes:
! The init/finalise pattern of real models: module arrays allocated in an init routine
! (with a passive one and a zero-based one), used by the time steps, freed in a finalise
! routine; the head calls both at its top level. The adjoint allocates the adjoint arrays
! beside the init call and delays the finalisation to the backward sweep (it was refused:
! "a call to `mif_init`, which allocates or frees module variables that carry derivatives").
module mif_state
  implicit none
  real(8), allocatable :: u(:), w(:, :), flux(:)
  integer, allocatable :: kind_of_cell(:)
  integer :: n = 5
end module mif_state

module mif_model
  use mif_state
  implicit none
contains
  subroutine mif_init(m)
    integer, intent(in) :: m
    integer :: i
    n = m
    allocate(u(n), w(2, n), flux(0:n), kind_of_cell(n))
    do i = 1, n
      u(i) = 0.1d0*i
      kind_of_cell(i) = mod(i, 2)
    end do
    w = 1.0d0
    flux = 0.0d0
  end subroutine mif_init

  subroutine mif_step(x, dt)
    real(8), intent(in) :: x(5)
    real(8), intent(in) :: dt
    integer :: i
    do i = 1, n - 1
      flux(i) = 0.5d0*(u(i)**2 + u(i + 1)**2)*x(i)
    end do
    do i = 1, n
      if (kind_of_cell(i) == 1) then
        u(i) = u(i) - dt*(flux(i) - flux(i - 1)) + dt*sin(x(i))
      else
        u(i) = u(i) - dt*(flux(i) - flux(i - 1))*w(1, i) + dt*x(i)*w(2, i)
      end if
      w(1, i) = w(1, i) + dt*u(i)
    end do
  end subroutine mif_step

  subroutine mif_finalize()
    deallocate(u, w, flux, kind_of_cell)
  end subroutine mif_finalize
end module mif_model

subroutine mif_run(x, f)
  use mif_model
  implicit none
  real(8), intent(in) :: x(5)
  real(8), intent(out) :: f
  integer :: it
  call mif_init(5)
  do it = 1, 4
    call mif_step(x, 0.1d0)
  end do
  f = sum(u**2) + sum(w(1, :))
  call mif_finalize()
end subroutine mif_run
