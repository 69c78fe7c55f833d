! radtap: -head mesh_energy -vars "x k" -outvars "e"
! sizes: n=6
! A spring-network energy in the style of a structural code with derived types: a
! `mesh` type with fixed-size array components (node coordinates, element connectivity,
! element stiffness), a `material` type nested in it, type-bound-free procedures taking
! the types as INTENT(IN)/(INOUT), and an assumed-shape displacement vector. The head
! builds the mesh from the inputs, assembles element forces into a component array, and
! returns the strain energy.
module mesh_types
  use iso_fortran_env, only: wp => real64
  implicit none
  integer, parameter :: maxn = 12
  type material
    real(wp) :: young
    real(wp) :: alpha
  end type material
  type mesh
    integer :: nn, ne
    real(wp) :: xy(2, maxn)
    integer :: conn(2, maxn)
    real(wp) :: stiff(maxn)
    real(wp) :: force(2, maxn)
    type(material) :: mat
  end type mesh
contains
  subroutine build_mesh(m, n, x, kk)
    type(mesh), intent(out) :: m
    integer, intent(in) :: n
    real(wp), intent(in) :: x(:), kk
    integer :: i
    m%nn = n
    m%ne = n - 1
    m%mat%young = 2.0_wp*kk
    m%mat%alpha = 0.1_wp
    do i = 1, n
      m%xy(1, i) = real(i, wp) + 0.1_wp*x(i)
      m%xy(2, i) = 0.2_wp*x(i)**2
    end do
    do i = 1, m%ne
      m%conn(1, i) = i
      m%conn(2, i) = i + 1
      m%stiff(i) = m%mat%young*(1.0_wp + 0.05_wp*real(i, wp))
    end do
  end subroutine build_mesh

  function elem_length(m, e) result(len)
    type(mesh), intent(in) :: m
    integer, intent(in) :: e
    real(wp) :: len
    integer :: a, b
    a = m%conn(1, e)
    b = m%conn(2, e)
    len = sqrt((m%xy(1, b) - m%xy(1, a))**2 + (m%xy(2, b) - m%xy(2, a))**2)
  end function elem_length

  subroutine assemble_forces(m, u)
    type(mesh), intent(inout) :: m
    real(wp), intent(in) :: u(:)
    integer :: e, a, b
    real(wp) :: f
    m%force = 0.0_wp
    do e = 1, m%ne
      a = m%conn(1, e)
      b = m%conn(2, e)
      f = m%stiff(e)*(u(b) - u(a))/elem_length(m, e)
      m%force(1, a) = m%force(1, a) - f
      m%force(1, b) = m%force(1, b) + f
    end do
  end subroutine assemble_forces
end module mesh_types

subroutine mesh_energy(n, x, k, e)
  use mesh_types
  implicit none
  integer, intent(in) :: n
  real(wp), intent(in) :: x(n), k
  real(wp), intent(out) :: e
  type(mesh) :: m
  real(wp) :: u(n)
  integer :: i
  call build_mesh(m, n, x, k)
  do i = 1, n
    u(i) = 0.01_wp*real(i, wp)*x(i)
  end do
  call assemble_forces(m, u)
  e = 0.0_wp
  do i = 1, n
    e = e + 0.5_wp*u(i)*m%force(1, i) + m%mat%alpha*m%xy(2, i)
  end do
  do i = 1, m%ne
    e = e + 0.01_wp*elem_length(m, i)**2
  end do
end subroutine mesh_energy
