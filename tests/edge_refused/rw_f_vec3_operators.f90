! radtap: -head rigid_energy -vars "p w" -outvars "e"
! sizes: nb=4
! A small vector-algebra module as rigid-body and particle codes define it: a `vec3`
! derived type with user-defined operators through generic interfaces
! (`operator(+)`, `operator(-)`, `operator(*)` for scalar*vector, `operator(.dot.)`,
! `operator(.cross.)`), a `norm` function, and an energy summing kinetic rotational
! terms and springs between bodies. radtap refuses operator interfaces (AD020 at the
! first `interface operator(...)`): tests/edge_refusals.rs.
module vec3_mod
  use iso_fortran_env, only: wp => real64
  implicit none
  type vec3
    real(wp) :: x, y, z
  end type vec3
  interface operator(+)
    module procedure vadd
  end interface
  interface operator(-)
    module procedure vsub
  end interface
  interface operator(*)
    module procedure smul
  end interface
  interface operator(.dot.)
    module procedure vdot
  end interface
  interface operator(.cross.)
    module procedure vcross
  end interface
contains
  pure function vadd(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c = vec3(a%x + b%x, a%y + b%y, a%z + b%z)
  end function vadd

  pure function vsub(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c = vec3(a%x - b%x, a%y - b%y, a%z - b%z)
  end function vsub

  pure function smul(s, a) result(c)
    real(wp), intent(in) :: s
    type(vec3), intent(in) :: a
    type(vec3) :: c
    c = vec3(s*a%x, s*a%y, s*a%z)
  end function smul

  pure function vdot(a, b) result(d)
    type(vec3), intent(in) :: a, b
    real(wp) :: d
    d = a%x*b%x + a%y*b%y + a%z*b%z
  end function vdot

  pure function vcross(a, b) result(c)
    type(vec3), intent(in) :: a, b
    type(vec3) :: c
    c = vec3(a%y*b%z - a%z*b%y, a%z*b%x - a%x*b%z, a%x*b%y - a%y*b%x)
  end function vcross

  pure function norm(a) result(r)
    type(vec3), intent(in) :: a
    real(wp) :: r
    r = sqrt(a .dot. a)
  end function norm
end module vec3_mod

subroutine rigid_energy(nb, p, w, e)
  use vec3_mod
  implicit none
  integer, intent(in) :: nb
  real(wp), intent(in) :: p(3, nb), w(3)
  real(wp), intent(out) :: e
  type(vec3) :: r(nb), omega, v, d
  integer :: i
  omega = vec3(w(1), w(2), w(3))
  do i = 1, nb
    r(i) = vec3(real(i, wp) + 0.1_wp*p(1, i), 0.1_wp*p(2, i), 0.1_wp*p(3, i))
  end do
  e = 0.0_wp
  do i = 1, nb
    v = omega .cross. r(i)
    e = e + 0.5_wp*(v .dot. v)
  end do
  do i = 1, nb - 1
    d = r(i+1) - r(i)
    e = e + 2.0_wp*(norm(d) - 1.0_wp)**2 + 0.1_wp*norm(0.5_wp*(r(i) + r(i+1)))
  end do
end subroutine rigid_energy
